"""The twelve septica steps: each a fixed deal, the opponents' moves, and what the learner is to do.

Seat 0 leads the first deal, so a step where an opponent leads seats the
learner at 1. Card words in the texts use the suit symbols, which read the
same in both languages.
"""

from __future__ import annotations

from .script import END, TAKE, Step, You, any_card, card, cards, rank, septica_deal

TWO = {"match": "points-21"}
SIX = {"match": "points-21", "teams": False, "eights_cut": False}

TAKE_IT = You(TAKE)  # the page's own words ask for the take

LEADING = Step(
    slug="leading",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["KH", "9C", "TD", "JS"], ["QD", "8S", "QC", "8H"]]),
    seat=0,
    script=(
        You(any_card,
            hint={"en": "You lead this trick: play any of your four cards.",
                  "ro": "Tu deschizi levata: joacă oricare dintre cele patru cărți."}),
        "QD",
        TAKE_IT,
    ),
    title={"en": "Leading a trick", "ro": "Deschiderea levatei"},
    intro={"en": "Șeptică is played with 32 cards, from seven to ace, four in each hand. The leader opens a "
                 "trick with any card, and its rank is what matters: suits never count in this game.",
           "ro": "Șeptica se joacă cu 32 de cărți, de la șapte la as, câte patru în mână. Cel care deschide "
                 "levata pune orice carte, iar ce contează este valoarea ei: culorile nu contează niciodată."},
    learned={"en": "The leader plays any card; the trick stays with them unless someone cuts it.",
             "ro": "Cel care deschide joacă orice carte; levata rămâne a lui dacă nu o taie nimeni."},
)

CUTTING_WITH_A_SEVEN = Step(
    slug="cutting-with-a-seven",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["KS", "9H", "QC", "JD"], ["7H", "7C", "9D", "QS"]]),
    seat=1,
    script=(
        "KS",
        You(rank("7"),
            hint={"en": "Ana led K♠. Take the trick from her: a seven cuts anything.",
                  "ro": "Ana a deschis cu K♠. Ia-i levata: șeptarul taie orice."},
            wrong={"en": "%(card)s does not cut a king, so the trick would stay with Ana. Play one of your sevens.",
                   "ro": "%(card)s nu taie un rege, așa că levata ar rămâne la Ana. Joacă unul dintre șeptari."}),
        "end",
        TAKE_IT,
    ),
    title={"en": "Cutting with a seven", "ro": "Tăietura cu șeptarul"},
    intro={"en": "Playing a card that wins the trick is a cut (Romanians say tăietură). The seven is the "
                 "strongest card in the game: it cuts whatever was led.",
           "ro": "Cartea care câștigă levata o taie: asta e tăietura. Șeptarul e cea mai tare carte din joc: "
                 "taie orice carte a fost deschisă."},
    learned={"en": "A seven cuts any trick, whatever rank was led.",
             "ro": "Șeptarul taie orice levată, oricare ar fi cartea deschisă."},
)

CUTTING_WITH_THE_LED_RANK = Step(
    slug="cutting-with-the-led-rank",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["QD", "8C", "9S", "JH"], ["QH", "KC", "9D", "TS"]]),
    seat=1,
    script=(
        "QD",
        You(card("QH"),
            hint={"en": "Ana led Q♦. You have no seven, but a card of the same rank cuts too.",
                  "ro": "Ana a deschis cu Q♦. N-ai șeptar, dar o carte de aceeași valoare taie și ea."},
            wrong={"en": "%(card)s does not cut a queen: only a queen (the rank led) or a seven does, whatever the "
                         "suit. Play your Q♥.",
                   "ro": "%(card)s nu taie o damă: o damă se taie doar cu o damă (valoarea deschisă) sau cu un "
                         "șeptar, oricare ar fi culoarea. Joacă Q♥."}),
        "end",
        TAKE_IT,
    ),
    title={"en": "Cutting with the led rank", "ro": "Tăietura cu aceeași carte"},
    intro={"en": "Besides the sevens, the rank that was led cuts: on a queen, any other queen takes the trick.",
           "ro": "Pe lângă șeptari, taie și valoarea deschisă: peste o damă, orice altă damă ia levata."},
    learned={"en": "A card of the led rank cuts, in any suit; the last player to cut holds the trick.",
             "ro": "O carte de aceeași valoare taie, în orice culoare; levata e a ultimului care a tăiat."},
)

CONTINUING = Step(
    slug="continuing",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["TH", "TS", "7D", "KC"], ["7C", "9C", "JS", "QH"]]),
    seat=0,
    script=(
        You(card("TH"),
            hint={"en": "Lead your 10♥: a ten is worth a point to whoever takes the trick.",
                  "ro": "Deschide cu 10♥: un zece valorează un punct pentru cine ia levata."}),
        "7C",
        You(cards("TS", "7D"),
            hint={"en": "Bogdan cut your ten with a seven. As the leader you may fight on: play another ten or "
                        "a seven to win the trick back.",
                  "ro": "Bogdan ți-a tăiat zecele cu un șeptar. Tu ai deschis, deci poți continua: joacă alt "
                        "zece sau un șeptar ca să recâștigi levata."},
            wrong_action={"en": "Saying Gata now leaves your ten in Bogdan's trick. Continue with the other ten or "
                                "with the seven and it comes back.",
                          "ro": "Dacă spui Gata acum, zecele tău rămâne în levata lui Bogdan. Continuă cu celălalt "
                                "zece sau cu șeptarul și îl recuperezi."}),
        "9C",
        TAKE_IT,
    ),
    title={"en": "Continuing a trick", "ro": "Continuarea levatei"},
    intro={"en": "When everyone has played once and somebody cut your trick away, you, the leader, choose: "
                 "continue with the led rank or a seven (then everyone plays once more), or let it go.",
           "ro": "După ce fiecare a jucat o carte și cineva ți-a tăiat levata, tu, cel care ai deschis, alegi: "
                 "continui cu valoarea deschisă sau cu un șeptar (și toți mai joacă o carte), ori o lași."},
    learned={"en": "The leader may continue a cut trick with the led rank or a seven, and win it back.",
             "ro": "Cel care a deschis poate continua o levată tăiată cu aceeași valoare sau cu un șeptar și o "
                   "poate recâștiga."},
)

SAYING_END = Step(
    slug="saying-end",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["9C", "7S", "KH", "JS"], ["9D", "QC", "8H", "JD"]]),
    seat=0,
    script=(
        You(card("9C"),
            hint={"en": "Lead your 9♣.", "ro": "Deschide cu 9♣."}),
        "9D",
        You(END,
            hint={"en": "Bogdan cut with 9♦. The trick holds no ten and no ace: say Gata (\"done\") and keep "
                        "your seven.",
                  "ro": "Bogdan a tăiat cu 9♦. În levată nu e niciun zece și niciun as: spune Gata și păstrează-ți "
                        "șeptarul."},
            wrong={"en": "Keep your %(card)s: it would only win back two cards worth nothing. Save it for a "
                         "trick with points in it and say Gata.",
                   "ro": "Păstrează-ți %(card)s: ar recâștiga doar două cărți care nu valorează nimic. "
                         "Păstrează-l pentru o levată cu puncte și spune Gata."}),
        "take",
    ),
    title={"en": "Saying Gata", "ro": "Gata"},
    intro={"en": "Gata is Romanian for \"done\": the leader says it to stop a trick that was cut away. "
                 "Whoever cut last then takes the cards.",
           "ro": "Cu „Gata” cel care a deschis oprește o levată care i-a fost tăiată. Cine a tăiat ultimul "
                 "ia cărțile."},
    learned={"en": "Saying Gata ends the trick: the last cutter takes it, and your sevens stay in your hand.",
             "ro": "Cu Gata levata se încheie: o ia ultimul care a tăiat, iar șeptarii rămân la tine."},
)

TAKING = Step(
    slug="taking",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["TC", "8D", "9S", "QH"], ["TD", "KS", "JC", "8C"]], stock=["AS", "7H"]),
    seat=1,
    script=(
        "TC",
        You(card("TD"),
            hint={"en": "Ana led 10♣. Cut it with your own ten.",
                  "ro": "Ana a deschis cu 10♣. Taie-l cu zecele tău."},
            wrong={"en": "%(card)s does not cut a ten: only a ten or a seven does, and you hold 10♦.",
                   "ro": "%(card)s nu taie un zece: levata asta se taie doar cu un zece sau cu un șeptar, iar tu "
                         "ai 10♦."}),
        "end",
        You(TAKE,
            hint={"en": "Ana said Gata: the trick is yours. Take it (Ia).",
                  "ro": "Ana a spus Gata: levata e a ta. Ia-o."}),
        You(any_card,
            hint={"en": "You drew back up to four, first, and the one who took the trick leads the next: play any "
                        "card.",
                  "ro": "Ai tras cărți până la patru, primul, iar cine a luat levata o deschide pe următoarea: "
                        "joacă orice carte."}),
    ),
    title={"en": "Taking the trick", "ro": "Luarea levatei"},
    intro={"en": "Cards stay on the table until the trick's winner takes them (Ia, \"take\"), so everyone sees how "
                 "it ended. Then hands are filled up again and the winner leads.",
           "ro": "Cărțile rămân pe masă până când câștigătorul levatei le ia, ca toți să vadă cum s-a "
                 "terminat. Apoi fiecare trage până la patru, iar câștigătorul deschide."},
    learned={"en": "The winner takes the trick, draws first and leads the next one.",
             "ro": "Câștigătorul ia levata, trage primul și deschide levata următoare."},
)

POINTS = Step(
    slug="points",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["AH", "9C", "JD", "QS"], ["AS", "7C", "9D", "KC"]]),
    seat=1,
    script=(
        "AH",
        You(cards("AS", "7C"),
            hint={"en": "Ana led A♥, a point. Cut it: with your A♠ the trick holds two points.",
                  "ro": "Ana a deschis cu A♥, adică un punct. Taie-l: cu A♠ levata are două puncte."},
            wrong={"en": "%(card)s does not cut an ace, so the point would go to Ana. Cut with your ace or your "
                         "seven.",
                   "ro": "%(card)s nu taie un as, așa că punctul ar ajunge la Ana. Taie cu asul sau cu "
                         "șeptarul."}),
        "end",
        TAKE_IT,
    ),
    title={"en": "Points", "ro": "Punctele"},
    intro={"en": "Only tens and aces score: one point each for whoever takes them. There are eight points in a "
                 "deal; the other cards are there to fight with.",
           "ro": "Doar zecii și așii aduc puncte: câte unul pentru cine îi ia. Într-o mână sunt opt puncte; "
                 "celelalte cărți sunt doar muniție."},
    learned={"en": "Every ten and ace you take is a point, whoever played it.",
             "ro": "Fiecare zece și fiecare as pe care îl iei e un punct, oricine l-ar fi jucat."},
)

REFILLING = Step(
    slug="refilling",
    rules="septica",
    players=2,
    options=TWO,
    deck=septica_deal([["TC", "9H", "KD", "QS"], ["8H", "JC", "9S", "QC"]], stock=["AS", "7H"]),
    seat=0,
    script=(
        You(card("TC"), hint={"en": "Lead your 10♣.", "ro": "Deschide cu 10♣."}),
        "8H",
        You(TAKE,
            hint={"en": "Nobody cut: the trick is yours. Take it and watch the stock.",
                  "ro": "Nu a tăiat nimeni: levata e a ta. Ia-o și urmărește pachetul."}),
        You(card("AS"),
            hint={"en": "You drew first, one card (A♠), then Bogdan drew his. Lead the ace you just drew.",
                  "ro": "Ai tras primul o carte (A♠), apoi și-a tras și Bogdan una. Deschide cu asul tras."}),
    ),
    title={"en": "Drawing back up", "ro": "Completarea mâinii"},
    intro={"en": "After each trick everyone draws from the stock, one card at a time, starting with the player "
                 "who took it, until every hand holds four again.",
           "ro": "După fiecare levată toți trag din pachet, câte o carte, începând cu cel care a luat-o, până "
                 "când fiecare are iar patru cărți."},
    learned={"en": "Hands are filled back up to four after every trick, the winner first, while the stock lasts.",
             "ro": "După fiecare levată mâinile se completează la patru, începând cu câștigătorul, cât timp mai "
                   "sunt cărți în pachet."},
)

# Six players: 30 cards (two eights are put aside), 24 dealt, six in the stock,
# so one round of drawing empties it and four tricks follow without drawing.
LAST_TRICKS = Step(
    slug="last-tricks",
    rules="septica",
    players=6,
    options=SIX,
    deck=septica_deal(
        [["KH", "AH", "QH", "9H"], ["9C", "TC", "7C", "TS"], ["JC", "QD", "8H", "7H"],
         ["QC", "KC", "KS", "AS"], ["9D", "9S", "KD", "7S"], ["JD", "JS", "JH", "7D"]],
        stock=["TH", "TD", "AC", "AD", "8S", "QS"],
        removed=("8C", "8D"),
    ),
    seat=0,
    script=(
        You(card("KH"), hint={"en": "Six at the table. Lead your K♥.", "ro": "Sunteți șase la masă. Deschide cu K♥."}),
        "9C", "JC", "QC", "9D", "JD",
        TAKE_IT,
        You(card("AH"),
            hint={"en": "Everybody drew one card and the stock is empty now. Lead your A♥.",
                  "ro": "Fiecare a tras o carte și pachetul s-a terminat. Deschide cu A♥."}),
        "TC", "QD", "KC", "9S", "JS",
        TAKE_IT,
        You(card("QH"), hint={"en": "Lead your Q♥.", "ro": "Deschide cu Q♥."}),
        "7C", "8H", "KS", "KD", "JH",
        You(END,
            hint={"en": "Bogdan cut with a seven and you hold no queen and no seven: say Gata.",
                  "ro": "Bogdan a tăiat cu un șeptar, iar tu n-ai nici damă, nici șeptar: spune Gata."}),
        "take",
        "TD", "AC", "AD", "8S", "QS",
        You(card("TH"),
            hint={"en": "Bogdan led 10♦ and the others threw two aces on it. Cut with your 10♥.",
                  "ro": "Bogdan a deschis cu 10♦, iar ceilalți au pus doi ași. Taie cu 10♥."},
            wrong={"en": "%(card)s does not cut a ten. Your 10♥ does, and the trick holds three points.",
                   "ro": "%(card)s nu taie un zece. 10♥ îl taie, iar în levată sunt trei puncte."}),
        "end",
        TAKE_IT,
        You(card("9H"),
            hint={"en": "Your last card: lead it. When this trick is taken the deal is over.",
                  "ro": "Ultima ta carte: deschide cu ea. Când se ia levata asta, mâna s-a terminat."}),
        "TS", "7H", "AS", "7S", "7D",
        "take",
    ),
    title={"en": "The last tricks", "ro": "Ultimele levate"},
    intro={"en": "When the stock runs out nobody draws any more: the hands are played out to the last card, and "
                 "the last trick counts like any other. At this table of six the eights do not cut (a table "
                 "option; the next step shows them cutting).",
           "ro": "Când pachetul se termină nu mai trage nimeni: se joacă mâinile până la ultima carte, iar "
                 "ultima levată contează ca oricare alta. La masa aceasta de șase, optarii nu taie (o opțiune a "
                 "mesei; pasul următor îi arată tăind)."},
    learned={"en": "With the stock empty the hands are played out; the last trick ends the deal and the points "
                   "are counted.",
             "ro": "Cu pachetul gol se joacă toate cărțile din mână; ultima levată încheie mâna și se numără "
                   "punctele."},
)

EIGHTS_WITH_THREE = Step(
    slug="eights-with-three",
    rules="septica",
    players=3,
    options={"match": "points-21"},
    deck=septica_deal([["AH", "9C", "JD", "QS"], ["8S", "9D", "JC", "KS"], ["9H", "QD", "KC", "TC"]],
                      removed=("8C", "8D")),
    seat=1,
    script=(
        "AH",
        You(card("8S"),
            hint={"en": "With three players 8♣ and 8♦ were put aside, and the other eights cut like sevens. "
                        "Cut Ana's ace with your 8♠.",
                  "ro": "La trei jucători, 8♣ și 8♦ au fost scoase, iar ceilalți optari taie ca șeptarii. "
                        "Taie asul Anei cu 8♠."},
            wrong={"en": "%(card)s does not cut an ace. At this table your eight does.",
                   "ro": "%(card)s nu taie un as. La masa asta optarul tău îl taie."}),
        "9H",
        "end",
        TAKE_IT,
    ),
    title={"en": "Eights with three players", "ro": "Optarii la trei jucători"},
    intro={"en": "32 cards do not share out among three, five or six players, so two eights are taken out and "
                 "shown to everyone. The eights still in play then cut, just like sevens (a table option, on by "
                 "default).",
           "ro": "Cele 32 de cărți nu se împart la trei, cinci sau șase jucători, așa că doi optari sunt scoși și "
                 "arătați tuturor. Optarii rămași în joc taie atunci la fel ca șeptarii (o opțiune a mesei, "
                 "activă de obicei)."},
    learned={"en": "With 3, 5 or 6 players two eights are put aside and the other eights cut like sevens.",
             "ro": "La 3, 5 sau 6 jucători doi optari sunt scoși, iar ceilalți taie ca șeptarii."},
)

TEAMS = Step(
    slug="teams",
    rules="septica",
    players=4,
    options={"match": "points-21", "teams": True},
    deck=septica_deal([["KC", "9D", "QH", "JS"], ["9H", "JD", "8C", "QS"], ["TS", "AD", "7H", "JC"],
                       ["9S", "8D", "QC", "KH"]]),
    seat=2,
    script=(
        "KC",
        "9H",
        You(cards("TS", "AD"),
            hint={"en": "Ana, across the table, is your partner, and her K♣ holds the trick. Give her a point: "
                        "throw your ten or your ace.",
                  "ro": "Ana, din fața ta, îți este parteneră, iar K♣ al ei ține levata. Dă-i un punct: pune "
                        "zecele sau asul."},
            wrong={"en": "%(card)s brings no point to a trick that is already your team's, and a seven would cut "
                         "your partner: give her a ten or an ace to take home.",
                   "ro": "%(card)s nu aduce niciun punct într-o levată care e deja a echipei tale, iar un șeptar "
                         "ți-ar tăia partenera: dă-i un zece sau un as să-l ia."}),
        "9S",
        "take",
    ),
    title={"en": "Teams", "ro": "Echipele"},
    intro={"en": "With four players (or six) partners sit opposite each other and add their points together. When "
                 "the trick is your partner's, it is the team's: feed it points instead of cutting it.",
           "ro": "La patru jucători (sau șase) partenerii stau față în față și își adună punctele. Când levata e "
                 "a partenerului, e a echipei: pune-i puncte în loc să o tai."},
    learned={"en": "Partners sit opposite and score together: give points to a trick your partner holds.",
             "ro": "Partenerii stau față în față și punctează împreună: pune puncte în levata ținută de partener."},
)

THE_MATCH = Step(
    slug="the-match",
    rules="septica",
    players=6,
    options={**SIX, "match": "points-8"},
    deck=septica_deal(
        [["KH", "AH", "QH", "TH"], ["9C", "TC", "7C", "AC"], ["JC", "QD", "8H", "AD"],
         ["QC", "KC", "7D", "8S"], ["9D", "9S", "KD", "QS"], ["JD", "JS", "7S", "TD"]],
        stock=["7H", "TS", "AS", "9H", "KS", "JH"],
        removed=("8C", "8D"),
    ),
    seat=0,
    script=(
        You(card("KH"), hint={"en": "A match to 8 points. Lead your K♥.",
                              "ro": "Un meci până la 8 puncte. Deschide cu K♥."}),
        "9C", "JC", "QC", "9D", "JD",
        TAKE_IT,
        You(card("AH"), hint={"en": "Lead your A♥.", "ro": "Deschide cu A♥."}),
        "TC", "QD", "KC", "9S", "JS",
        TAKE_IT,
        You(card("QH"), hint={"en": "Lead your Q♥.", "ro": "Deschide cu Q♥."}),
        "7C", "8H", "7D", "KD", "7S",
        You(END,
            hint={"en": "Three sevens, and not a point in the trick: say Gata and keep your seven for later.",
                  "ro": "Trei șeptari și niciun punct în levată: spune Gata și păstrează-ți șeptarul pentru mai "
                        "târziu."},
            wrong={"en": "Keep your %(card)s: nothing in this trick is worth a seven. Say Gata.",
                   "ro": "Păstrează-ți %(card)s: nimic din levata asta nu merită un șeptar. Spune Gata."}),
        "take",
        "TD",
        You(card("TH"),
            hint={"en": "Florin led 10♦. Cut it with your ten.", "ro": "Florin a deschis cu 10♦. Taie-l cu zecele tău."},
            wrong={"en": "Keep your %(card)s for the last trick; your ten cuts this one.",
                   "ro": "Păstrează %(card)s pentru ultima levată; pe aceasta o taie zecele tău."}),
        "AC", "AD", "8S", "QS",
        "end",
        TAKE_IT,
        You(card("7H"),
            hint={"en": "Your last card, a seven: lead it and the last two points are yours.",
                  "ro": "Ultima ta carte e un șeptar: deschide cu el și ultimele două puncte sunt ale tale."}),
        "TS", "AS", "9H", "KS", "JH",
        TAKE_IT,
    ),
    title={"en": "The match", "ro": "Meciul"},
    intro={"en": "Deals follow one another until the match is decided. To 8 or 21 points, each deal's points add "
                 "up and the highest total once someone reaches the target wins; in best of 3 or 5, each deal is "
                 "one game, won by the most points. This match is to 8: take every point in one deal.",
           "ro": "Mâinile se succed până se decide meciul. La 8 sau 21 de puncte, punctele fiecărei mâini se "
                 "adună și, când cineva atinge ținta, câștigă totalul cel mai mare; la cel mai bun din 3 sau din "
                 "5, fiecare mână e un joc câștigat de cine are mai multe puncte. Meciul acesta e până la 8: ia "
                 "toate punctele într-o singură mână."},
    learned={"en": "Points add up from deal to deal; the match goes to the highest total once the target is "
                   "reached.",
             "ro": "Punctele se adună de la o mână la alta; meciul e câștigat de totalul cel mai mare după ce "
                   "cineva atinge ținta."},
)

STEPS = (
    LEADING, CUTTING_WITH_A_SEVEN, CUTTING_WITH_THE_LED_RANK, CONTINUING, SAYING_END, TAKING, POINTS, REFILLING,
    LAST_TRICKS, EIGHTS_WITH_THREE, TEAMS, THE_MATCH,
)
