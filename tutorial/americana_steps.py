"""The americana steps: two players, the learner at seat 0 (who starts the first deal), Bogdan at seat 1."""

from __future__ import annotations

from .script import DRAW, Step, You, americana_deal, any_card, card, not_rank, seven_naming, suit

TABLE = {"target": 101}

FOLLOWING = Step(
    slug="following",
    rules="americana",
    players=2,
    options=TABLE,
    deck=americana_deal([["4H", "9S", "KC", "3D", "QC"], ["4S", "8D", "6C", "5D", "TD"]], top="9H"),
    seat=0,
    script=(
        You(any_card,
            hint={"en": "9♥ is on top. Play a heart, or a nine of any suit.",
                  "ro": "Deasupra e 9♥. Joacă o cupă sau un nouă de orice culoare."},
            wrong_action={"en": "You hold a card that fits: play it. Drawing is for when nothing fits.",
                          "ro": "Ai o carte care se potrivește: joac-o. Tragi doar când nu se potrivește nimic."}),
        "4S",
        You(any_card,
            hint={"en": "Bogdan played 4♠. Follow it again: the same suit, or the same rank.",
                  "ro": "Bogdan a jucat 4♠. Potrivește din nou: aceeași culoare sau aceeași valoare."},
            wrong_action={"en": "No need to draw: one of your cards still fits 4♠, the same suit or the same rank.",
                          "ro": "Nu e nevoie să tragi: una dintre cărțile tale se potrivește peste 4♠, aceeași "
                                "culoare sau aceeași valoare."}),
    ),
    title={"en": "Following suit or rank", "ro": "Culoarea sau valoarea"},
    intro={"en": "Americana is a different game with a full pack of 52: get rid of your cards. Each turn you put "
                 "one card on the pile that matches the suit in force or the rank on top.",
           "ro": "Americana e alt joc, cu pachetul întreg de 52 de cărți: scapă de cărți. La fiecare rând pui pe "
                 "grămadă o carte de aceeași culoare cu cea cerută sau de aceeași valoare cu cea de deasupra."},
    learned={"en": "A card follows when it matches the suit in force or the rank on top.",
             "ro": "O carte se potrivește dacă are culoarea cerută sau valoarea cărții de deasupra."},
)

SEVENS = Step(
    slug="sevens",
    rules="americana",
    players=2,
    options=TABLE,
    deck=americana_deal([["7D", "KH", "5H", "QH", "3S"], ["6H", "4D", "8S", "JS", "TC"]], top="9C"),
    seat=0,
    script=(
        You(seven_naming("H"),
            hint={"en": "Nothing of yours fits 9♣ except the seven, which goes on anything. Play it and name "
                        "hearts, the suit you hold most of.",
                  "ro": "Peste 9♣ nu se potrivește nimic de-al tău în afară de șeptar, care merge peste orice. "
                        "Joacă-l și cere cupă, culoarea din care ai cele mai multe cărți."},
            wrong={"en": "You named %(suit)s with %(card)s: name hearts instead, you hold three of them, so you can "
                         "follow next turn.",
                   "ro": "Cu %(card)s ai cerut %(suit)s: cere mai bine cupă, ai trei, așa că vei putea juca și "
                         "data viitoare."},
            wrong_action={"en": "No need to draw: your seven goes on anything. Play it and name hearts.",
                          "ro": "Nu e nevoie să tragi: șeptarul merge peste orice. Joacă-l și cere cupă."}),
        "6H",
        You(suit("H"),
            hint={"en": "Bogdan had to follow your hearts. Play one of yours.",
                  "ro": "Bogdan a trebuit să joace cupă. Joacă și tu una."},
            wrong_action={"en": "No need to draw: hearts are in force and you hold some. Play a heart.",
                          "ro": "Nu e nevoie să tragi: se cere cupă, iar tu ai. Joacă o cupă."}),
    ),
    title={"en": "Sevens name the suit", "ro": "Șeptarul schimbă culoarea"},
    intro={"en": "The seven gives the game its name: it goes on any card, and whoever plays it names the suit "
                 "everyone must follow next.",
           "ro": "Șeptarul dă numele jocului: merge peste orice carte, iar cine îl joacă spune ce culoare trebuie "
                 "jucată în continuare."},
    learned={"en": "A seven goes on anything and names the suit to follow.",
             "ro": "Șeptarul merge peste orice și stabilește culoarea care se joacă mai departe."},
)

TWOS = Step(
    slug="twos",
    rules="americana",
    players=2,
    options=TABLE,
    deck=americana_deal([["2C", "2H", "9D", "KS", "4H"], ["2D", "6S", "3C", "QD", "8H"]], top="5C"),
    seat=0,
    script=(
        You(card("2C"),
            hint={"en": "Play your 2♣ on 5♣: it makes Bogdan take two cards.",
                  "ro": "Joacă 2♣ peste 5♣: Bogdan va trebui să ia două cărți."},
            wrong_action={"en": "No need to draw: play 2♣, it follows the clubs and sends two cards Bogdan's way.",
                          "ro": "Nu e nevoie să tragi: joacă 2♣, se potrivește cu trefla și îi trimite lui Bogdan "
                                "două cărți."}),
        "2D",
        You(card("2H"),
            hint={"en": "Bogdan answered with 2♦: now it is four, for you. Pass them on with your 2♥.",
                  "ro": "Bogdan a răspuns cu 2♦: acum sunt patru, pentru tine. Trimite-le mai departe cu 2♥."},
            wrong_action={"en": "Taking the four cards hurts. A two answers a two whatever its suit: play 2♥ and it "
                                "is six for Bogdan.",
                          "ro": "Dacă iei cele patru cărți, te costă. Un doi răspunde la un doi indiferent de "
                                "culoare: joacă 2♥ și Bogdan ia șase."}),
        "draw",
    ),
    title={"en": "Twos, and stacking them", "ro": "Doiarii și adunarea lor"},
    intro={"en": "A two makes the next player take two cards, unless they answer with a two of their own: then "
                 "it is four for the next, then six, until somebody takes the lot.",
           "ro": "Un doi îl obligă pe următorul jucător să ia două cărți, dacă nu răspunde cu un doi: atunci "
                 "următorul ia patru, apoi șase, până când cineva le ia pe toate."},
    learned={"en": "A two makes the next player take two; answering with a two passes on two more.",
             "ro": "Doiarul îl face pe următorul să ia două cărți; răspunzând cu un doi trimiți încă două."},
)

ACES = Step(
    slug="aces",
    rules="americana",
    players=2,
    options=TABLE,
    deck=americana_deal([["AS", "AC", "9C", "KD", "3C"], ["AH", "6D", "8D", "JH", "QH"]], top="4S"),
    seat=0,
    script=(
        You(card("AS"),
            hint={"en": "Play A♠ on 4♠: an ace makes the next player miss a turn.",
                  "ro": "Joacă A♠ peste 4♠: asul îl face pe următorul jucător să stea o tură."},
            wrong_action={"en": "No need to draw: play your A♠, it follows the spades and makes Bogdan miss his "
                                "turn.",
                          "ro": "Nu e nevoie să tragi: joacă A♠, se potrivește cu pica și îl face pe Bogdan să stea "
                                "o tură."}),
        "AH",
        You(card("AC"),
            hint={"en": "Bogdan handed the skip back with A♥. Hand it back again with your A♣.",
                  "ro": "Bogdan ți-a întors tura pierdută cu A♥. Întoarce-i-o cu A♣."},
            wrong_action={"en": "Only an ace answers an ace, and you hold one: play A♣ instead of sitting out.",
                          "ro": "La as se răspunde doar cu as, iar tu ai unul: joacă A♣ în loc să stai."}),
        "pass",
        You(suit("C"),
            hint={"en": "Bogdan sat his turn out, so with two players it comes straight back to you. Clubs are "
                        "in force: play a club.",
                  "ro": "Bogdan a stat o tură, așa că la doi jucători rândul revine imediat la tine. Se joacă "
                        "treflă: pune o treflă."},
            wrong_action={"en": "No need to draw: A♣ is on top, play a club.",
                          "ro": "Nu e nevoie să tragi: deasupra e A♣, joacă o treflă."}),
    ),
    title={"en": "Aces skip a turn", "ro": "Asul te face să stai o tură"},
    intro={"en": "An ace makes the next player miss a turn. They can hand it on with an ace of their own, in any "
                 "suit; otherwise they sit the turn out.",
           "ro": "Asul îl face pe următorul jucător să stea o tură. Acesta îl poate trimite mai departe cu un as "
                 "de-al lui, de orice culoare; altfel stă o tură."},
    learned={"en": "An ace skips the next player unless they answer with an ace.",
             "ro": "Asul îl sare pe următorul jucător, dacă nu răspunde și el cu un as."},
)

DRAWING = Step(
    slug="drawing",
    rules="americana",
    players=2,
    options=TABLE,
    deck=americana_deal([["KH", "3D", "5C", "QD", "4H"], ["9S", "6C", "TC", "5D", "QC"]], top="8S", stock=["9H"]),
    seat=0,
    script=(
        You(DRAW,
            hint={"en": "8♠ is on top, and you hold no spade, no eight and no seven. Draw a card.",
                  "ro": "Deasupra e 8♠, iar tu n-ai nicio pică, niciun opt și niciun șeptar. Trage o carte."},
            refused={"en": "None of your cards follows 8♠. Draw one card from the stock: that is your whole turn.",
                     "ro": "Nicio carte de-a ta nu se potrivește peste 8♠. Trage o carte din pachet: asta e toată "
                           "tura ta."}),
        "9S",
        You(card("9H"),
            hint={"en": "Bogdan played 9♠, and the card you drew fits it now.",
                  "ro": "Bogdan a jucat 9♠, iar cartea pe care ai tras-o se potrivește acum."},
            wrong_action={"en": "No need to draw again: look at the card you drew, 9♥ goes on 9♠.",
                          "ro": "Nu mai trage: uită-te la cartea trasă, 9♥ merge peste 9♠."}),
    ),
    title={"en": "Drawing", "ro": "Tragerea din pachet"},
    intro={"en": "When nothing fits, take one card from the stock, and your turn is over: you never draw and "
                 "play in the same turn.",
           "ro": "Când nu se potrivește nimic, iei o carte din pachet și tura ta s-a încheiat: nu tragi și joci "
                 "în aceeași tură."},
    learned={"en": "When nothing fits, draw one card; that is your turn.",
             "ro": "Când nu ai ce juca, tragi o carte; asta e tura ta."},
)

KEEP_THE_SEVEN = {
    "en": "Keep the seven for last: %(card)s goes on anything, so it will be your way out.",
    "ro": "Păstrează șeptarul pentru la urmă: %(card)s merge peste orice, așa că el te va scoate.",
}

GOING_OUT = Step(
    slug="going-out",
    rules="americana",
    players=2,
    options=TABLE,
    deck=americana_deal([["6H", "6C", "KC", "KD", "7S"], ["7C", "AD", "KH", "QS", "9D"]], top="5H"),
    seat=0,
    script=(
        You(not_rank("7"),
            hint={"en": "Play your cards down, one each turn, and keep the seven for the end.",
                  "ro": "Scapă de cărți, câte una pe tură, și păstrează șeptarul pentru final."},
            wrong=KEEP_THE_SEVEN),
        "draw",
        You(not_rank("7"), hint={"en": "Bogdan drew. Next card.", "ro": "Bogdan a tras. Următoarea carte."},
            wrong=KEEP_THE_SEVEN),
        "draw",
        You(not_rank("7"), wrong=KEEP_THE_SEVEN),
        "draw",
        You(not_rank("7"), wrong=KEEP_THE_SEVEN),
        "draw",
        You(any_card,
            hint={"en": "Only the seven is left. Play it (name any suit) and go out.",
                  "ro": "A rămas doar șeptarul. Joacă-l (cere orice culoare) și ieși."}),
    ),
    title={"en": "Going out, and the penalties", "ro": "Ieșirea și penalizările"},
    intro={"en": "Play your last card and the round stops at once. Everyone else is charged for what they still "
                 "hold: 2 to 10 their number, jacks, queens and kings 10, an ace 11, a seven 25. The totals add "
                 "up, and when somebody reaches the target (101 here) the lowest total wins. A round where the "
                 "turn goes all the way round with nobody able to play or draw charges everybody but the "
                 "smallest hand.",
           "ro": "Când joci ultima carte, runda se oprește pe loc. Ceilalți plătesc ce au rămas în mână: de la 2 "
                 "la 10 cât arată cartea, valetul, dama și popa 10, asul 11, șeptarul 25. Totalurile se adună, "
                 "iar când cineva atinge ținta (aici 101), câștigă totalul cel mai mic. Dacă rândul face turul "
                 "mesei fără ca cineva să poată juca sau trage, plătesc toți în afară de cel cu mâna cea mai "
                 "mică."},
    learned={"en": "Going out ends the round; the others pay for their cards (a seven costs 25), and the lowest "
                   "total wins the match.",
             "ro": "Cine iese încheie runda; ceilalți plătesc cărțile rămase (șeptarul costă 25), iar meciul îl "
                   "câștigă totalul cel mai mic."},
)

STEPS = (FOLLOWING, SEVENS, TWOS, ACES, DRAWING, GOING_OUT)
