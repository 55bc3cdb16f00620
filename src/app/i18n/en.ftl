# The app's words in English: the reference the other languages follow.
# Each message is used by the code as t!("id"); variables are { $name }.

## Colours and results

color-black = Black
color-white = White
color-black-lower = black
color-white-lower = white
ending-board-finished = board finished
ending-resigned = { $color } resigned
ending-timeout = { $color } ran out of time
## Home

app-name = Reversi
home-tagline = In all its historic forms, peer to peer, every move signed.
home-rules = Rules: { $rules }
home-preset = Preset:
home-open-log = Open a match log
home-settings = Settings
home-play-computer = Play the computer
home-level = level
home-you-play = You play
home-random = Random
home-resume = Resume the game against the computer
home-play-friend = Play a friend
home-friend-how = Host and send the code, or join with a friend's code.
home-host = Host a game
home-join = Join a game
home-watch = Watch a game
home-host-options = Options for hosted games
home-deadline = Per-move deadline:
home-draw-by-lot = Equal count decided by lot
home-draw-by-lot-why = One of you, drawn by lot, chooses which colour wins an equal count; the other chooses a colour
home-browser-games = Your games in this browser
home-your-games = Your games
home-refresh = Refresh
home-open = Open
home-download = Download
home-not-accepted = (not yet accepted)
home-moves-count = { $count ->
    [one] { $count } move
   *[other] { $count } moves
}
home-does-not-verify = does not verify
home-not-started = not started
first-run-question = What should opponents call you?
first-run-name = Your name
first-run-ok = OK
first-run-skip = Skip
first-run-why = Shown to the friends you play and in your invite links.

## The rules editor

rules-custom = Custom rules (individual options, own start position)
rules-opening = Opening
rules-discs = Discs
rules-scoring = Scoring
rules-equal-count = Equal count
rules-board = Board
rules-editor = Start position — click a square to cycle empty, black, white, wall:
rules-first-to-move = First to move:
rules-standard-start = Standard start

## Join

back = Back
join-invited = { $host } invites you to a game of Reversi
join-code-from-link = The code from their link:
join-type-code = Type or paste the code (or the invite link) from the host:
join-promise = The host must have { $host } and prove it made this code when you connect.
join-promise-server = The host must have { $host } and prove it made this code when you connect; you meet through { $server }.
join-your-name = Your name:
join-join = Join

outcome-win = { $color } wins { $black }–{ $white } ({ $how })
outcome-draw = a draw, { $black }–{ $white } ({ $how })

## The computer's levels

level-1 = Novice
level-2 = Beginner
level-3 = Casual
level-4 = Club player
level-5 = Intermediate
level-6 = Advanced
level-7 = Expert
level-8 = Master
level-9 = Grandmaster
level-10 = Champion

## The game screen

game-home = Home
game-over = Game over
game-show-result = Show the result
game-looking-back = Looking back: after move { $move } of { $of }
game-back-to-game = Back to the game
game-you-suffix = { " " }(you)
game-discs-in-hand = Discs in hand: black { $black }, white { $white }
game-your-move = Your move ({ $color })
game-thinking = { $name } is thinking…
game-to-move = { $color } to move
game-moves = Moves
game-copy = Copy
game-pass = pass
game-resign = Resign
game-really-resign = Really resign?
game-yes-resign = Yes, resign
game-cancel = Cancel
refused-flips-nothing = { $square } flips nothing
refused-occupied = { $square } is taken
refused-wall = { $square } is a wall
refused-outside-centre = { $square } is not a centre square: the first four discs go on d4, e4, d5, e5
refused-not-now = { $square } cannot be played now
refused-not-your-move = It is not your move yet.
end-draw = Draw
end-you-win = You win
end-you-lose = You lose
end-wins = { $color } wins
end-score = Black { $black } – { $white } White
end-copy-transcript = Copy transcript
end-see-board = See the board

## Network games

net-starting = starting…
net-connecting = connecting
net-waiting = waiting for the opponent
net-proposing-rematch = proposing a rematch to { $name }
net-awaiting-rematch = waiting for { $name } to propose a rematch
net-reconnecting = reconnecting
net-opponent-offline = opponent offline — reconnecting
net-checking-keys = checking keys and flipping the coin
net-playing = playing
net-game-over = game over
net-stopped = stopped

## What happened

notice-you-no-move = You have no legal move: { $color } is skipped.
notice-you-no-discs = You have no discs left: { $color } is skipped.
notice-computer-no-move = The computer has no legal move: { $color } is skipped.
notice-computer-no-discs = The computer has no discs left: { $color } is skipped.
notice-skipped = { $color } has no legal move and is skipped.
notice-colours-settled = The colours are settled: you play { $color }.
notice-you-chose-tie = You chose: an equal count wins for { $color }.
notice-you-chose-color = You chose to play { $color }.
notice-they-chose-tie = The opponent chose: an equal count wins for { $color }.
notice-they-chose-color = The opponent chose to play { $color }.
notice-rejected = Rejected from the opponent: { $why }
notice-peer-rejected = The opponent rejected: { $why }
notice-move-refused = Not played: { $why }
notice-halted = Game halted: { $why }
notice-rematch-offered = The opponent proposes a rematch.

net-heading = Online game
net-opponent = Opponent
net-room-code = Room code:
net-ended = The game has ended.
net-opponent-is = Opponent: { $name }
net-status = Status: { $status }
net-copy-watch-code = Copy watch code
net-opponent-key = Opponent: { $name } ({ $key })
net-safety-words = Safety words: { $words }
net-safety-why = Your opponent sees the same words (and the same code, { $code }) if nobody stands between you. Compare them by voice if it matters.
net-connected-direct = connected (direct)
net-connected-relayed = connected (relayed)
net-connected = connected
net-offline = opponent offline
net-rematch-offered = The opponent proposes a rematch: the same rules, a new coin flip.
net-accept = Accept
net-decline = Decline
net-choose-tie-winner = The lot lets you choose: which colour wins if the discs are equal?
net-choose-color = Which colour do you play?
net-opponent-choosing = The opponent is choosing under the draw rule decided by lot.
net-your-clock = Your clock: { $left } left
net-their-clock = Opponent's clock: { $left } left
net-log-saved = Signed log saved: { $path }
net-submit = Submit to the leaderboard
net-rematch = Rematch
net-wait-rematch = Wait for a rematch
analyse-game = Analyse the game
net-no-log = the log is not there
net-copy-ggf = Copy GGF
net-download-log = Download the signed log

## The invite, before the board

invite-board-appears = The board appears once both players are connected and the coin is flipped.
invite-send-link = Send your friend this link:
invite-phone = A phone on this network opens it from the camera.
invite-or-code = or read them the code:
invite-read-code = Read this code to your friend, or send it:
invite-copy-code = Copy code
invite-copy-invite = Copy invite
invite-text = Play Reversi with me: open Reversi, choose Join a game and enter { $code }
invite-link-how = The link opens the game in a browser, with nothing to install; with Reversi installed they can also paste it into Join a game. The board appears once you are connected and the coin is flipped.
invite-code-how = They join from Reversi's Join a game. The board appears once you are connected and the coin is flipped.

net-reconnect-attempt = reconnecting, attempt { $attempt }, next in { $secs } s
invite-what-the-code-protects = The code's secret never reaches the server: neither the server nor anyone on the network can join in your friend's place or answer in yours. Anyone who hears or sees the code can, so give it only to your friend. The link also carries your whole key; once connected, compare the safety code if you want to be sure.

## Against the computer

local-heading = You vs the computer
local-computer = The computer
local-level = level { $level } ({ $name })
local-cannot-move = The computer cannot move: { $why }
local-rematch = Rematch (colours swap)
local-summary = You ({ $color }) against the computer at level { $level }
hint = Hint
hint-looking = Looking for a hint…
hint-exact = Hint: { $square } { $value } (exact)
hint-estimate = Hint: { $square } { $value } (estimate)

## Watching

watch-paste = Paste the watch code a player shared (GAME_ID@SERVER):
watch-watch = Watch
watch-watching = Watching { $code }
watch-unknown = (not yet known)
watch-black = Black: { $name }
watch-white = White: { $name }
watch-choosing = The colours are being chosen (draw rule decided by lot).
watch-over-win = Game over: { $name } wins ({ $how })
watch-over-draw = Game over: a draw ({ $how })
watch-hosts = { $host } hosts; { $guest } joins; the coin is not flipped yet
watch-clock = { $name }'s clock: { $left } left

## The log viewer

viewer-unreadable = the dropped file could not be read
viewer-heading = Match log
viewer-file = File:
viewer-file-named = File: { $path }
viewer-drop = Or drop a log file on this window.
viewer-does-not-verify = Does not verify: { $why }
viewer-move-of = move { $move } of { $of }
viewer-previous = ◀ Previous
viewer-next = Next ▶
viewer-verified = Verified: all { $records } records verify (signatures, chain, every move)
viewer-players = Black: { $black } — White: { $white }
viewer-rules = Rules: { $rules }
viewer-result = Result: { $result }
viewer-unfinished = Result: unfinished

counts = Black { $black } — White { $white }

## Analysis

analysis-graph = Evaluation for Black, move by move (±{ $scale } discs); coloured dots: inaccuracies, mistakes, blunders.
analysis-working = Analysing move { $move } of { $of }…
analysis-done = Analysis done: depth { $depth }, exact from { $empties } empties.
analysis-exact = { $value } (exact)
analysis-move = Move { $number }: { $color } { $square } { $value }; best { $best } { $best_value }; lost { $lost } discs
analysis-inaccuracy = inaccuracy
analysis-mistake = mistake
analysis-blunder = blunder

## Settings

settings-language = Language
settings-language-system = System ({ $name })
settings-name = Your name
settings-server = Signaling server (empty: built in, for LAN play)
settings-ice = STUN/TURN servers
settings-turn-user = TURN user
settings-turn-password = TURN password
settings-animations = Animate flipping discs
settings-move-time = seconds the computer may think per move
settings-book = the computer plays its first moves from the opening book (levels 8–10)
settings-pace = milliseconds before the computer's reply appears
settings-sound = Sounds
settings-dark = Dark theme
settings-notify = Ask for attention when it is your move in one of your games
settings-key-error = Your key: { $why }
settings-leaderboard = Count my finished games on this signaling server's leaderboard (with players who joined too)

## Your key

key-heading = Your key
key-what = Your key { $fingerprint } signs your moves, and your ratings follow it. Export it to use it in another browser or on the desktop.
key-passphrase = Passphrase (at least { $chars } characters)
key-again = The passphrase again (to export)
key-export = Export your key
key-paste = Or paste a key exported elsewhere (a file reversi-identity-….txt) to make it yours here:
key-replace = Replace the key here (it is kept aside, not deleted)
key-import = Import the key
key-working = Working: the passphrase is stretched on purpose, to be slow to guess…

saved-game-broken = the saved game cannot be restored: { $why }
title-your-move = Your move — Reversi

link-unknown-part = the link has an unknown part: { $part }
link-level = the computer's level is 1–10, not { $found }
link-color = a colour is black, white or random, not { $found }
link-name = a name in a link is 1–{ $max } characters
link-no-game = the link names no game: { $why }

## Your games

games-your-move = your move ({ $color })
games-their-move = their move ({ $color })
games-time-up = time is up
games-left = { $time } left

key-same = { $fingerprint } is already your key here
key-new = your key is now { $fingerprint }
key-replaced = your key is now { $fingerprint }; the previous one is kept in { $previous }
key-exported-to = exported to { $path }
key-downloaded = exported: { $name } is downloaded
key-cannot-start = cannot start: { $why }
key-job-stopped = the job stopped

## The leaderboard

leaderboard-joined = Joined the leaderboard of { $server }.
leaderboard-left = Left the leaderboard of { $server }.
leaderboard-counted = Counted on the leaderboard of { $server }: game { $game }.
leaderboard-no-server = The leaderboard lives on a signaling server: set one above ({ $why }).
leaderboard-asking = Asking the leaderboard…
leaderboard-failed = The leaderboard: { $why }


## Rules, options and durations

preset-othello = the modern game: crossed centre preset, unlimited discs, disc count
preset-reversi = the 1883 opening: first four discs placed freely in the centre; empty squares go to the winner
preset-classic = the 1880s rules: free opening, 32 discs each, disc count
preset-ravensburger = the first player places two centre discs, choosing a crossed or parallel start
preset-torus = othello on a board whose edges wrap around
option-preset = preset
option-free = free
option-double = double
option-unlimited = unlimited
option-count = count
option-empties = empties
option-draw = draw
option-plane = plane
option-torus = torus
unit-days = { $n } d
unit-hours = { $n } h
unit-minutes = { $n } min
unit-seconds = { $n } s
watch-asking = asking { $server } for the game…
watch-following = following the game
watch-out-of-reach = the mailbox is out of reach ({ $why }); trying again
watch-not-yet-there = waiting for the game to reach the mailbox
