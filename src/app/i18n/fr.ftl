# Les mots de l'application en français, traduits de la référence anglaise (en.ftl).
# Chaque message est appelé par le code avec t!("id") ; les variables s'écrivent { $name }.

## Couleurs et résultats

color-black = Noir
color-white = Blanc
color-black-lower = noir
color-white-lower = blanc
ending-board-finished = partie terminée
ending-resigned = { $color } a abandonné
ending-timeout = { $color } a épuisé son temps
## Accueil

app-name = Reversi
home-tagline = Sous toutes ses formes historiques, de pair à pair, chaque coup signé.
home-rules = Règles : { $rules }
home-preset = Préréglage :
home-open-log = Ouvrir un journal de partie
home-settings = Paramètres
home-play-computer = Jouer contre l'ordinateur
home-level = niveau
home-you-play = Votre couleur
home-random = Au hasard
home-resume = Reprendre la partie contre l'ordinateur
home-play-friend = Jouer contre un ami
home-friend-how = Hébergez une partie et envoyez le code, ou rejoignez-en une avec le code d'un ami.
home-host = Héberger une partie
home-join = Rejoindre une partie
home-watch = Observer une partie
home-host-options = Options des parties hébergées
home-deadline = Délai par coup :
home-draw-by-lot = Égalité de pions tranchée au sort
home-draw-by-lot-why = L'un de vous, tiré au sort, choisit quelle couleur l'emporte en cas d'égalité ; l'autre choisit sa couleur
home-browser-games = Vos parties dans ce navigateur
home-your-games = Vos parties
home-refresh = Actualiser
home-open = Ouvrir
home-download = Télécharger
home-not-accepted = (pas encore acceptée)
home-moves-count = { $count ->
    [one] { $count } coup
   *[other] { $count } coups
}
home-does-not-verify = vérification échouée
home-not-started = non commencée
first-run-question = Comment vos adversaires doivent-ils vous appeler ?
first-run-name = Votre nom
first-run-ok = OK
first-run-skip = Ignorer
first-run-why = Affiché aux amis avec qui vous jouez et dans vos liens d'invitation.

## L'éditeur de règles

rules-custom = Règles personnalisées (options au choix, position de départ libre)
rules-opening = Ouverture
rules-discs = Pions
rules-scoring = Décompte
rules-equal-count = Égalité
rules-board = Othellier
rules-editor = Position de départ — cliquez sur une case pour alterner vide, noir, blanc, mur :
rules-first-to-move = Premier à jouer :
rules-standard-start = Position standard

## Rejoindre

back = Retour
join-invited = { $host } vous invite à une partie de Reversi
join-code-from-link = Le code tiré de son lien :
join-type-code = Saisissez ou collez le code (ou le lien d'invitation) de l'hôte :
join-promise = L'hôte doit détenir { $host } et prouver qu'il a créé ce code quand vous vous connectez.
join-promise-server = L'hôte doit détenir { $host } et prouver qu'il a créé ce code quand vous vous connectez ; vous vous retrouvez via { $server }.
join-your-name = Votre nom :
join-join = Rejoindre

outcome-win = { $color } gagne { $black }–{ $white } ({ $how })
outcome-draw = partie nulle, { $black }–{ $white } ({ $how })

## Les niveaux de l'ordinateur

level-1 = Novice
level-2 = Débutant
level-3 = Amateur
level-4 = Joueur de club
level-5 = Intermédiaire
level-6 = Avancé
level-7 = Expert
level-8 = Maître
level-9 = Grand maître
level-10 = Champion

## L'écran de jeu

game-home = Accueil
game-over = Partie terminée
game-show-result = Voir le résultat
game-looking-back = Retour en arrière : après le coup { $move } sur { $of }
game-back-to-game = Revenir à la partie
game-you-suffix = { " " }(vous)
game-discs-in-hand = Pions en réserve : noir { $black }, blanc { $white }
game-your-move = À vous de jouer ({ $color })
game-thinking = { $name } réfléchit…
game-to-move = Au tour de { $color }
game-moves = Coups
game-copy = Copier
game-pass = passe
game-resign = Abandonner
game-really-resign = Vraiment abandonner ?
game-yes-resign = Oui, abandonner
game-cancel = Annuler
refused-flips-nothing = Jouer { $square } ne retourne aucun pion
refused-occupied = La case { $square } est occupée
refused-wall = La case { $square } est un mur
refused-outside-centre = La case { $square } n'est pas centrale : les quatre premiers pions se posent en d4, e4, d5, e5
refused-not-now = Impossible de jouer { $square } maintenant
refused-not-your-move = Ce n'est pas encore à vous de jouer.
end-draw = Partie nulle
end-you-win = Vous gagnez
end-you-lose = Vous perdez
end-wins = { $color } gagne
end-score = Noir { $black } – { $white } Blanc
end-copy-transcript = Copier la notation
end-see-board = Voir l'othellier

## Parties en réseau

net-starting = démarrage…
net-connecting = connexion
net-waiting = en attente de l'adversaire
net-proposing-rematch = proposition de revanche à { $name }
net-awaiting-rematch = en attente d'une proposition de revanche de { $name }
net-reconnecting = reconnexion
net-opponent-offline = adversaire hors ligne — reconnexion
net-checking-keys = vérification des clés et tirage au sort
net-playing = partie en cours
net-game-over = partie terminée
net-stopped = à l'arrêt

## Ce qui s'est passé

notice-you-no-move = Vous n'avez aucun coup légal : { $color } passe son tour.
notice-you-no-discs = Vous n'avez plus de pions : { $color } passe son tour.
notice-computer-no-move = L'ordinateur n'a aucun coup légal : { $color } passe son tour.
notice-computer-no-discs = L'ordinateur n'a plus de pions : { $color } passe son tour.
notice-skipped = { $color } n'a aucun coup légal et passe son tour.
notice-colours-settled = Les couleurs sont fixées : votre couleur est { $color }.
notice-you-chose-tie = Votre choix : en cas d'égalité, { $color } l'emporte.
notice-you-chose-color = Vous avez choisi votre couleur : { $color }.
notice-they-chose-tie = Choix de l'adversaire : en cas d'égalité, { $color } l'emporte.
notice-they-chose-color = L'adversaire a choisi sa couleur : { $color }.
notice-rejected = Message de l'adversaire rejeté : { $why }
notice-peer-rejected = L'adversaire a refusé : { $why }
notice-move-refused = Coup non joué : { $why }
notice-halted = Partie interrompue : { $why }
notice-rematch-offered = L'adversaire propose une revanche.

net-heading = Partie en ligne
net-opponent = Adversaire
net-room-code = Code de la salle :
net-ended = La partie est terminée.
net-opponent-is = Adversaire : { $name }
net-status = État : { $status }
net-copy-watch-code = Copier le code d'observation
net-opponent-key = Adversaire : { $name } ({ $key })
net-safety-words = Mots de sécurité : { $words }
net-safety-why = Votre adversaire voit les mêmes mots (et le même code, { $code }) si personne ne s'interpose entre vous. Comparez-les de vive voix si c'est important.
net-connected-direct = connecté (direct)
net-connected-relayed = connecté (relayé)
net-connected = connecté
net-offline = adversaire hors ligne
net-rematch-offered = L'adversaire propose une revanche : mêmes règles, nouveau tirage au sort.
net-accept = Accepter
net-decline = Refuser
net-choose-tie-winner = Le sort vous laisse choisir : quelle couleur l'emporte en cas d'égalité de pions ?
net-choose-color = Quelle couleur prenez-vous ?
net-opponent-choosing = L'adversaire choisit, selon la règle d'égalité tranchée au sort.
net-your-clock = Votre pendule : il reste { $left }
net-their-clock = Pendule de l'adversaire : il reste { $left }
net-log-saved = Journal signé enregistré : { $path }
net-submit = Soumettre au classement
net-rematch = Revanche
net-wait-rematch = Attendre une revanche
analyse-game = Analyser la partie
net-no-log = le journal est introuvable
net-copy-ggf = Copier le GGF
net-download-log = Télécharger le journal signé

## L'invitation, avant l'othellier

invite-board-appears = L'othellier apparaît une fois les deux joueurs connectés et le tirage au sort effectué.
invite-send-link = Envoyez ce lien à votre ami :
invite-phone = Un téléphone sur ce réseau l'ouvre avec l'appareil photo.
invite-or-code = ou lisez-lui le code :
invite-read-code = Lisez ce code à votre ami, ou envoyez-le-lui :
invite-copy-code = Copier le code
invite-copy-invite = Copier l'invitation
invite-text = Jouez à Reversi avec moi : ouvrez Reversi, choisissez « Rejoindre une partie » et saisissez { $code }
invite-link-how = Le lien ouvre la partie dans un navigateur, sans rien installer ; si Reversi est installé, votre ami peut aussi le coller dans « Rejoindre une partie ». L'othellier apparaît une fois la connexion établie et le tirage au sort effectué.
invite-code-how = Votre ami rejoint la partie depuis « Rejoindre une partie » dans Reversi. L'othellier apparaît une fois la connexion établie et le tirage au sort effectué.

net-reconnect-attempt = reconnexion, tentative { $attempt }, prochaine dans { $secs } s
invite-what-the-code-protects = Le secret du code n'atteint jamais le serveur : ni le serveur ni personne sur le réseau ne peut rejoindre la partie à la place de votre ami ni répondre à la vôtre. Quiconque entend ou voit le code le peut, en revanche : ne le donnez donc qu'à votre ami. Le lien contient aussi votre clé entière ; une fois connectés, comparez le code de sécurité si vous voulez en être certain.

## Contre l'ordinateur

local-heading = Vous contre l'ordinateur
local-computer = L'ordinateur
local-level = niveau { $level } ({ $name })
local-cannot-move = L'ordinateur ne peut pas jouer : { $why }
local-rematch = Revanche (couleurs inversées)
local-summary = Vous ({ $color }) contre l'ordinateur au niveau { $level }
hint = Conseil
hint-looking = Recherche d'un conseil…
hint-exact = Conseil : { $square } { $value } (exact)
hint-estimate = Conseil : { $square } { $value } (estimation)

## Observation

watch-paste = Collez le code d'observation partagé par un joueur (GAME_ID@SERVER) :
watch-watch = Observer
watch-watching = Observation de { $code }
watch-unknown = (pas encore connu)
watch-black = Noir : { $name }
watch-white = Blanc : { $name }
watch-choosing = Les couleurs sont en cours de choix (règle d'égalité tranchée au sort).
watch-over-win = Partie terminée : { $name } gagne ({ $how })
watch-over-draw = Partie terminée : match nul ({ $how })
watch-hosts = { $host } héberge ; { $guest } rejoint ; le tirage au sort n'a pas encore eu lieu
watch-clock = Pendule de { $name } : il reste { $left }

## Le lecteur de journaux

viewer-unreadable = le fichier déposé n'a pas pu être lu
viewer-heading = Journal de partie
viewer-file = Fichier :
viewer-file-named = Fichier : { $path }
viewer-drop = Ou déposez un fichier journal sur cette fenêtre.
viewer-does-not-verify = Vérification échouée : { $why }
viewer-move-of = coup { $move } sur { $of }
viewer-previous = ◀ Précédent
viewer-next = Suivant ▶
viewer-verified = Vérifié : les { $records } enregistrements sont tous valides (signatures, chaîne, chaque coup)
viewer-players = Noir : { $black } — Blanc : { $white }
viewer-rules = Règles : { $rules }
viewer-result = Résultat : { $result }
viewer-unfinished = Résultat : partie inachevée

counts = Noir { $black } — Blanc { $white }

## Analyse

analysis-graph = Évaluation pour Noir, coup par coup (±{ $scale } pions) ; points colorés : imprécisions, erreurs, gaffes.
analysis-working = Analyse du coup { $move } sur { $of }…
analysis-done = Analyse terminée : profondeur { $depth }, exacte à partir de { $empties } cases vides.
analysis-exact = { $value } (exact)
analysis-move = Coup { $number } : { $color } { $square } { $value } ; meilleur { $best } { $best_value } ; { $lost } pions perdus
analysis-inaccuracy = imprécision
analysis-mistake = erreur
analysis-blunder = gaffe

## Paramètres

settings-language = Langue
settings-language-system = Système ({ $name })
settings-name = Votre nom
settings-server = Serveur de signalisation (vide : intégré, pour jouer en réseau local)
settings-ice = Serveurs STUN/TURN
settings-turn-user = Utilisateur TURN
settings-turn-password = Mot de passe TURN
settings-animations = Animer le retournement des pions
settings-move-time = secondes de réflexion de l'ordinateur par coup
settings-book = l'ordinateur joue ses premiers coups dans le livre d'ouvertures (niveaux 8 à 10)
settings-pace = millisecondes avant l'affichage de la réponse de l'ordinateur
settings-sound = Sons
settings-dark = Thème sombre
settings-notify = Attirer votre attention quand c'est à vous de jouer dans une de vos parties
settings-key-error = Votre clé : { $why }
settings-leaderboard = Compter mes parties terminées dans le classement de ce serveur de signalisation (avec les joueurs qui s'y sont aussi inscrits)

## Votre clé

key-heading = Votre clé
key-what = Votre clé { $fingerprint } signe vos coups, et vos classements y sont liés. Exportez-la pour l'utiliser dans un autre navigateur ou dans l'application de bureau.
key-passphrase = Phrase secrète (au moins { $chars } caractères)
key-again = Répétez la phrase secrète (pour l'export)
key-export = Exporter votre clé
key-paste = Ou collez une clé exportée ailleurs (un fichier reversi-identity-….txt) pour en faire la vôtre ici :
key-replace = Remplacer la clé d'ici (elle est mise de côté, pas supprimée)
key-import = Importer la clé
key-working = En cours : la phrase secrète est volontairement étirée, pour être lente à deviner…

saved-game-broken = la partie enregistrée ne peut pas être restaurée : { $why }
title-your-move = À vous de jouer — Reversi

link-unknown-part = le lien contient un élément inconnu : { $part }
link-level = le niveau de l'ordinateur va de 1 à 10, pas { $found }
link-color = la couleur doit être black, white ou random, pas { $found }
link-name = un nom dans un lien compte de 1 à { $max } caractères
link-no-game = le lien ne désigne aucune partie : { $why }

## Vos parties

games-your-move = à vous de jouer ({ $color })
games-their-move = au tour de l'adversaire ({ $color })
games-time-up = temps écoulé
games-left = il reste { $time }

key-same = { $fingerprint } est déjà votre clé ici
key-new = votre clé est désormais { $fingerprint }
key-replaced = votre clé est désormais { $fingerprint } ; la précédente est conservée dans { $previous }
key-exported-to = clé exportée vers { $path }
key-downloaded = clé exportée : fichier { $name } téléchargé
key-cannot-start = impossible de démarrer : { $why }
key-job-stopped = la tâche s'est arrêtée

## Le classement

leaderboard-joined = Inscription au classement de { $server } effectuée.
leaderboard-left = Retrait du classement de { $server } effectué.
leaderboard-counted = Partie { $game } comptée dans le classement de { $server }.
leaderboard-no-server = Le classement se trouve sur un serveur de signalisation : indiquez-en un ci-dessus ({ $why }).
leaderboard-asking = Interrogation du classement…
leaderboard-failed = Classement : { $why }

## Règles, options et durées

preset-othello = le jeu moderne : centre croisé imposé, pions illimités, décompte des pions
preset-reversi = l'ouverture de 1883 : les quatre premiers pions posés librement au centre ; les cases vides vont au gagnant
preset-classic = les règles des années 1880 : ouverture libre, 32 pions chacun, décompte des pions
preset-ravensburger = le premier joueur pose deux pions au centre, en croix ou en parallèle, à son choix
preset-torus = l'othello sur un plateau dont les bords se rejoignent
option-preset = imposée
option-free = libre
option-double = double
option-unlimited = illimités
option-count = pions
option-empties = cases vides
option-draw = nulle
option-plane = plan
option-torus = tore
unit-days = { $n } j
unit-hours = { $n } h
unit-minutes = { $n } min
unit-seconds = { $n } s
watch-asking = demande de la partie à { $server }…
watch-following = partie suivie
watch-out-of-reach = la boîte aux lettres est injoignable ({ $why }) ; nouvel essai
watch-not-yet-there = en attendant que la partie arrive dans la boîte aux lettres
