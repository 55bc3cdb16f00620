# Die Texte der App auf Deutsch, übersetzt nach der englischen Vorlage.
# Jede Nachricht wird im Code als t!("id") verwendet; Variablen sind { $name }.

## Farben und Ergebnisse

color-black = Schwarz
color-white = Weiß
color-black-lower = Schwarz
color-white-lower = Weiß
ending-board-finished = ausgespielt
ending-resigned = { $color } hat aufgegeben
ending-timeout = { $color } hat die Zeit überschritten
## Start

app-name = Reversi
home-tagline = In all seinen historischen Formen, Peer-to-Peer, jeder Zug signiert.
home-rules = Regeln: { $rules }
home-preset = Vorgabe:
home-open-log = Partieprotokoll öffnen
home-settings = Einstellungen
home-play-computer = Gegen den Computer spielen
home-level = Stufe
home-you-play = Du spielst
home-random = Zufällig
home-resume = Partie gegen den Computer fortsetzen
home-play-friend = Mit einem Freund spielen
home-friend-how = Hoste und schick den Code, oder tritt mit dem Code eines Freundes bei.
home-host = Spiel hosten
home-join = Spiel beitreten
home-watch = Spiel ansehen
home-host-options = Optionen für gehostete Spiele
home-deadline = Zeitlimit pro Zug:
home-draw-by-lot = Gleichstand per Los entscheiden
home-draw-by-lot-why = Einer von euch, per Los bestimmt, wählt, welche Farbe bei Gleichstand gewinnt; der andere wählt eine Farbe
home-browser-games = Deine Partien in diesem Browser
home-your-games = Deine Partien
home-refresh = Aktualisieren
home-open = Öffnen
home-download = Herunterladen
home-not-accepted = (noch nicht angenommen)
home-moves-count = { $count ->
    [one] { $count } Zug
   *[other] { $count } Züge
}
home-does-not-verify = Prüfung fehlgeschlagen
home-not-started = nicht begonnen
first-run-question = Wie sollen Gegner dich nennen?
first-run-name = Dein Name
first-run-ok = OK
first-run-skip = Überspringen
first-run-why = Wird den Freunden angezeigt, mit denen du spielst, und steht in deinen Einladungslinks.

## Der Regel-Editor

rules-custom = Eigene Regeln (einzelne Optionen, eigene Startstellung)
rules-opening = Eröffnung
rules-discs = Steine
rules-scoring = Wertung
rules-equal-count = Gleichstand
rules-board = Brett
rules-editor = Startstellung — klicke auf ein Feld, um zwischen leer, Schwarz, Weiß und Mauer zu wechseln:
rules-first-to-move = Am Zug zuerst:
rules-standard-start = Standard-Startstellung

## Beitreten

back = Zurück
join-invited = { $host } lädt dich zu einer Partie Reversi ein
join-code-from-link = Der Code aus dem Link:
join-type-code = Gib den Code (oder den Einladungslink) des Hosts ein oder füge ihn ein:
join-promise = Der Host muss { $host } besitzen und beim Verbinden beweisen, dass er diesen Code erstellt hat.
join-promise-server = Der Host muss { $host } besitzen und beim Verbinden beweisen, dass er diesen Code erstellt hat; ihr trefft euch über { $server }.
join-your-name = Dein Name:
join-join = Beitreten

outcome-win = { $color } gewinnt { $black }–{ $white } ({ $how })
outcome-draw = Unentschieden, { $black }–{ $white } ({ $how })

## Die Stufen des Computers

level-1 = Neuling
level-2 = Anfänger
level-3 = Gelegenheitsspieler
level-4 = Vereinsspieler
level-5 = Fortgeschrittener
level-6 = Könner
level-7 = Experte
level-8 = Meister
level-9 = Großmeister
level-10 = Champion

## Der Spielbildschirm

game-home = Start
game-over = Partie vorbei
game-show-result = Ergebnis anzeigen
game-looking-back = Rückblick: nach Zug { $move } von { $of }
game-back-to-game = Zurück zur Partie
game-you-suffix = { " " }(du)
game-discs-in-hand = Steine in der Hand: Schwarz { $black }, Weiß { $white }
game-your-move = Dein Zug ({ $color })
game-thinking = { $name } denkt nach…
game-to-move = { $color } ist am Zug
game-moves = Züge
game-copy = Kopieren
game-pass = passt
game-resign = Aufgeben
game-really-resign = Wirklich aufgeben?
game-yes-resign = Ja, aufgeben
game-cancel = Abbrechen
refused-flips-nothing = { $square } dreht keinen Stein um
refused-occupied = { $square } ist besetzt
refused-wall = { $square } ist eine Mauer
refused-outside-centre = { $square } ist kein Mittelfeld: Die ersten vier Steine kommen auf d4, e4, d5, e5
refused-not-now = { $square } kann jetzt nicht gespielt werden
refused-not-your-move = Du bist noch nicht am Zug.
end-draw = Unentschieden
end-you-win = Du gewinnst
end-you-lose = Du verlierst
end-wins = { $color } gewinnt
end-score = Schwarz { $black } – { $white } Weiß
end-copy-transcript = Partieverlauf kopieren
end-see-board = Brett ansehen

## Online-Partien

net-starting = wird gestartet…
net-connecting = Verbindung wird aufgebaut
net-waiting = Warten auf den Gegner
net-proposing-rematch = Revanche wird { $name } vorgeschlagen
net-awaiting-rematch = Warten, bis { $name } eine Revanche vorschlägt
net-reconnecting = Verbindung wird wiederhergestellt
net-opponent-offline = Gegner offline — Verbindung wird wiederhergestellt
net-checking-keys = Schlüssel werden geprüft, Münze wird geworfen
net-playing = Partie läuft
net-game-over = Partie vorbei
net-stopped = angehalten

## Was passiert ist

notice-you-no-move = Du hast keinen gültigen Zug: { $color } wird übersprungen.
notice-you-no-discs = Du hast keine Steine mehr: { $color } wird übersprungen.
notice-computer-no-move = Der Computer hat keinen gültigen Zug: { $color } wird übersprungen.
notice-computer-no-discs = Der Computer hat keine Steine mehr: { $color } wird übersprungen.
notice-skipped = { $color } hat keinen gültigen Zug und wird übersprungen.
notice-colours-settled = Die Farben stehen fest: Du spielst { $color }.
notice-you-chose-tie = Deine Wahl: Bei Gleichstand gewinnt { $color }.
notice-you-chose-color = Du hast dich für { $color } entschieden.
notice-they-chose-tie = Die Wahl des Gegners: Bei Gleichstand gewinnt { $color }.
notice-they-chose-color = Der Gegner hat sich für { $color } entschieden.
notice-rejected = Nachricht des Gegners zurückgewiesen: { $why }
notice-peer-rejected = Der Gegner hat zurückgewiesen: { $why }
notice-move-refused = Nicht gespielt: { $why }
notice-halted = Partie angehalten: { $why }
notice-rematch-offered = Der Gegner schlägt eine Revanche vor.

net-heading = Online-Partie
net-opponent = Gegner
net-room-code = Raumcode:
net-ended = Die Partie ist beendet.
net-opponent-is = Gegner: { $name }
net-status = Status: { $status }
net-copy-watch-code = Zuschaucode kopieren
net-opponent-key = Gegner: { $name } ({ $key })
net-safety-words = Sicherheitswörter: { $words }
net-safety-why = Dein Gegner sieht dieselben Wörter (und denselben Code, { $code }), wenn niemand zwischen euch steht. Vergleicht sie mündlich, wenn es darauf ankommt.
net-connected-direct = verbunden (direkt)
net-connected-relayed = verbunden (über Relay)
net-connected = verbunden
net-offline = Gegner offline
net-rematch-offered = Der Gegner schlägt eine Revanche vor: dieselben Regeln, ein neuer Münzwurf.
net-accept = Annehmen
net-decline = Ablehnen
net-choose-tie-winner = Das Los lässt dich wählen: Welche Farbe gewinnt bei Gleichstand?
net-choose-color = Welche Farbe spielst du?
net-opponent-choosing = Der Gegner wählt nach der per Los entschiedenen Gleichstandsregel.
net-your-clock = Deine Uhr: noch { $left }
net-their-clock = Uhr des Gegners: noch { $left }
net-log-saved = Signiertes Protokoll gespeichert: { $path }
net-submit = An die Bestenliste senden
net-rematch = Revanche
net-wait-rematch = Auf Revanche warten
analyse-game = Partie analysieren
net-no-log = das Protokoll fehlt
net-copy-ggf = GGF kopieren
net-download-log = Signiertes Protokoll herunterladen

## Die Einladung, vor dem Brett

invite-board-appears = Das Brett erscheint, sobald beide Spieler verbunden sind und die Münze geworfen ist.
invite-send-link = Schick deinem Freund diesen Link:
invite-phone = Ein Handy in diesem Netzwerk öffnet ihn über die Kamera.
invite-or-code = oder lies ihm den Code vor:
invite-read-code = Lies deinem Freund diesen Code vor oder schick ihn ihm:
invite-copy-code = Code kopieren
invite-copy-invite = Einladung kopieren
invite-text = Spiel Reversi mit mir: Öffne Reversi, wähle „Spiel beitreten“ und gib { $code } ein
invite-link-how = Der Link öffnet das Spiel im Browser, ohne Installation; wer Reversi installiert hat, kann ihn auch unter „Spiel beitreten“ einfügen. Das Brett erscheint, sobald ihr verbunden seid und die Münze geworfen ist.
invite-code-how = Dein Freund tritt in Reversi über „Spiel beitreten“ bei. Das Brett erscheint, sobald ihr verbunden seid und die Münze geworfen ist.

net-reconnect-attempt = Verbindung wird wiederhergestellt, Versuch { $attempt }, nächster in { $secs } s
invite-what-the-code-protects = Das Geheimnis des Codes erreicht nie den Server: Weder der Server noch sonst jemand im Netzwerk kann an Stelle deines Freundes beitreten oder an deiner Stelle antworten. Wer den Code hört oder sieht, kann das schon – gib ihn also nur deinem Freund. Der Link enthält außerdem deinen ganzen Schlüssel; vergleicht nach dem Verbinden den Sicherheitscode, wenn ihr sichergehen wollt.

## Gegen den Computer

local-heading = Du gegen den Computer
local-computer = Der Computer
local-level = Stufe { $level } ({ $name })
local-cannot-move = Der Computer kann nicht ziehen: { $why }
local-rematch = Revanche (Farben tauschen)
local-summary = Du ({ $color }) gegen den Computer auf Stufe { $level }
hint = Tipp
hint-looking = Tipp wird gesucht…
hint-exact = Tipp: { $square } { $value } (exakt)
hint-estimate = Tipp: { $square } { $value } (geschätzt)

## Zuschauen

watch-paste = Füge den Zuschaucode ein, den ein Spieler geteilt hat (GAME_ID@SERVER):
watch-watch = Zuschauen
watch-watching = Zuschauen bei { $code }
watch-unknown = (noch unbekannt)
watch-black = Schwarz: { $name }
watch-white = Weiß: { $name }
watch-choosing = Die Farben werden gewählt (Gleichstandsregel per Los entschieden).
watch-over-win = Partie vorbei: { $name } gewinnt ({ $how })
watch-over-draw = Partie vorbei: Unentschieden ({ $how })
watch-hosts = { $host } hostet; { $guest } tritt bei; die Münze ist noch nicht geworfen
watch-clock = Uhr von { $name }: noch { $left }

## Der Protokoll-Betrachter

viewer-unreadable = die abgelegte Datei konnte nicht gelesen werden
viewer-heading = Partieprotokoll
viewer-file = Datei:
viewer-file-named = Datei: { $path }
viewer-drop = Oder zieh eine Protokolldatei auf dieses Fenster.
viewer-does-not-verify = Prüfung fehlgeschlagen: { $why }
viewer-move-of = Zug { $move } von { $of }
viewer-previous = ◀ Zurück
viewer-next = Weiter ▶
viewer-verified = Geprüft: alle { $records } Einträge sind gültig (Signaturen, Kette, jeder Zug)
viewer-players = Schwarz: { $black } — Weiß: { $white }
viewer-rules = Regeln: { $rules }
viewer-result = Ergebnis: { $result }
viewer-unfinished = Ergebnis: nicht beendet

counts = Schwarz { $black } — Weiß { $white }

## Analyse

analysis-graph = Bewertung für Schwarz, Zug für Zug (±{ $scale } Steine); farbige Punkte: Ungenauigkeiten, Fehler, Patzer.
analysis-working = Analysiere Zug { $move } von { $of }…
analysis-done = Analyse fertig: Tiefe { $depth }, exakt ab { $empties } freien Feldern.
analysis-exact = { $value } (exakt)
analysis-move = Zug { $number }: { $color } { $square } { $value }; bester { $best } { $best_value }; { $lost } Steine verloren
analysis-inaccuracy = Ungenauigkeit
analysis-mistake = Fehler
analysis-blunder = Patzer

## Einstellungen

settings-language = Sprache
settings-language-system = System ({ $name })
settings-name = Dein Name
settings-server = Signalisierungsserver (leer: eingebaut, für LAN-Spiele)
settings-ice = STUN/TURN-Server
settings-turn-user = TURN-Benutzer
settings-turn-password = TURN-Passwort
settings-animations = Umdrehen der Steine animieren
settings-move-time = Sekunden, die der Computer pro Zug nachdenken darf
settings-book = der Computer spielt die ersten Züge aus dem Eröffnungsbuch (Stufen 8–10)
settings-pace = Millisekunden, bevor die Antwort des Computers erscheint
settings-sound = Töne
settings-dark = Dunkles Design
settings-notify = Aufmerksamkeit anfordern, wenn du in einer deiner Partien am Zug bist
settings-key-error = Dein Schlüssel: { $why }
settings-leaderboard = Meine beendeten Partien auf der Bestenliste dieses Signalisierungsservers zählen (mit Spielern, die ebenfalls beigetreten sind)

## Dein Schlüssel

key-heading = Dein Schlüssel
key-what = Dein Schlüssel { $fingerprint } signiert deine Züge, und deine Wertungen hängen an ihm. Exportiere ihn, um ihn in einem anderen Browser oder auf dem Desktop zu nutzen.
key-passphrase = Passphrase (mindestens { $chars } Zeichen)
key-again = Die Passphrase noch einmal (zum Exportieren)
key-export = Schlüssel exportieren
key-paste = Oder füge einen anderswo exportierten Schlüssel ein (eine Datei reversi-identity-….txt), um ihn hier zu deinem zu machen:
key-replace = Den Schlüssel hier ersetzen (er wird beiseitegelegt, nicht gelöscht)
key-import = Schlüssel importieren
key-working = Bitte warten: Die Passphrase wird absichtlich langsam gestreckt, damit sie schwer zu erraten ist…

saved-game-broken = die gespeicherte Partie kann nicht wiederhergestellt werden: { $why }
title-your-move = Dein Zug — Reversi

link-unknown-part = der Link hat einen unbekannten Teil: { $part }
link-level = die Stufe des Computers ist 1–10, nicht { $found }
link-color = eine Farbe ist black, white oder random, nicht { $found }
link-name = ein Name in einem Link hat 1–{ $max } Zeichen
link-no-game = der Link nennt keine Partie: { $why }

## Deine Partien

games-your-move = dein Zug ({ $color })
games-their-move = Zug des Gegners ({ $color })
games-time-up = Zeit abgelaufen
games-left = noch { $time }

key-same = { $fingerprint } ist hier bereits dein Schlüssel
key-new = dein Schlüssel ist jetzt { $fingerprint }
key-replaced = dein Schlüssel ist jetzt { $fingerprint }; der vorherige liegt in { $previous }
key-exported-to = exportiert nach { $path }
key-downloaded = exportiert: { $name } wurde heruntergeladen
key-cannot-start = kann nicht starten: { $why }
key-job-stopped = der Vorgang wurde beendet

## Die Bestenliste

leaderboard-joined = Der Bestenliste von { $server } beigetreten.
leaderboard-left = Bestenliste von { $server } verlassen.
leaderboard-counted = Auf der Bestenliste von { $server } gezählt: Partie { $game }.
leaderboard-no-server = Die Bestenliste liegt auf einem Signalisierungsserver: Trag oben einen ein ({ $why }).
leaderboard-asking = Bestenliste wird abgefragt…
leaderboard-failed = Bestenliste: { $why }


## Regeln, Optionen und Dauern

preset-othello = das moderne Spiel: gekreuzte Mitte vorgegeben, unbegrenzt Steine, Steine zählen
preset-reversi = die Eröffnung von 1883: die ersten vier Steine frei in die Mitte; leere Felder gehen an den Sieger
preset-classic = die Regeln der 1880er: freie Eröffnung, 32 Steine je Spieler, Steine zählen
preset-ravensburger = der erste Spieler setzt zwei Mittelsteine und wählt einen gekreuzten oder parallelen Start
preset-torus = Othello auf einem Brett, dessen Ränder ineinander übergehen
option-preset = vorgegeben
option-free = frei
option-double = doppelt
option-unlimited = unbegrenzt
option-count = Steine
option-empties = Leerfelder
option-draw = Remis
option-plane = Ebene
option-torus = Torus
unit-days = { $n } T
unit-hours = { $n } Std.
unit-minutes = { $n } Min.
unit-seconds = { $n } s
watch-asking = { $server } wird nach der Partie gefragt…
watch-following = Partie wird verfolgt
watch-out-of-reach = Der Briefkasten ist nicht erreichbar ({ $why }); neuer Versuch folgt
watch-not-yet-there = Warten, bis die Partie im Briefkasten ankommt
