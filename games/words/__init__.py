"""Every sentence the site makes from game data: rule-set names, options,
durations, cards, refusals and table summaries, in the reader's language.
The engine and the JSON keys never change with the language; these words do."""
