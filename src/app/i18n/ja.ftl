# アプリの日本語の文言。英語版（en.ftl）を基準にしています。
# コードは各メッセージを t!("id") で使います。変数は { $name } の形です。

## 色と結果

color-black = 黒
color-white = 白
color-black-lower = 黒
color-white-lower = 白
ending-board-finished = 終局
ending-resigned = { $color }の投了
ending-timeout = { $color }の時間切れ
## ホーム

app-name = リバーシ
home-tagline = 歴史上のあらゆる形式で、ピアツーピア対戦。すべての手に署名付き。
home-rules = ルール：{ $rules }
home-preset = プリセット：
home-open-log = 対局ログを開く
home-settings = 設定
home-play-computer = コンピュータと対局
home-level = レベル
home-you-play = あなたの色
home-random = ランダム
home-resume = コンピュータとの対局を再開
home-play-friend = 友達と対局
home-friend-how = ホストになってコードを送るか、友達のコードで参加します。
home-host = 対局をホスト
home-join = 対局に参加
home-watch = 対局を観戦
home-host-options = ホストする対局の設定
home-deadline = 1手の制限時間：
home-draw-by-lot = 同数はくじで決定
home-draw-by-lot-why = くじで選ばれた一方が同数のときに勝つ色を選び、もう一方が自分の色を選びます
home-browser-games = このブラウザでの対局
home-your-games = あなたの対局
home-refresh = 更新
home-open = 開く
home-download = ダウンロード
home-not-accepted = （未承認）
home-moves-count = { $count } 手
home-does-not-verify = 検証に失敗
home-not-started = 未開始
first-run-question = 対戦相手にどう呼ばれたいですか？
first-run-name = あなたの名前
first-run-ok = OK
first-run-skip = スキップ
first-run-why = 対戦する友達と、あなたの招待リンクに表示されます。

## ルールエディタ

rules-custom = カスタムルール（個別の設定、独自の初期配置）
rules-opening = 開始配置
rules-discs = 石の数
rules-scoring = 得点方式
rules-equal-count = 同数の場合
rules-board = 盤
rules-editor = 初期配置 — マスをクリックすると空き・黒・白・壁が順に切り替わります：
rules-first-to-move = 先手：
rules-standard-start = 標準の初期配置

## 参加

back = 戻る
join-invited = { $host } さんからリバーシの対局に招待されました
join-code-from-link = リンクのコード：
join-type-code = ホストから受け取ったコード（または招待リンク）を入力するか貼り付けてください：
join-promise = ホストは { $host } を持ち、接続時にこのコードを自分で作ったことを証明する必要があります。
join-promise-server = ホストは { $host } を持ち、接続時にこのコードを自分で作ったことを証明する必要があります。{ $server } を経由して接続します。
join-your-name = あなたの名前：
join-join = 参加

outcome-win = { $color }の勝ち { $black }–{ $white }（{ $how }）
outcome-draw = 引き分け { $black }–{ $white }（{ $how }）

## コンピュータのレベル

level-1 = 入門
level-2 = 初心者
level-3 = 初級
level-4 = 愛好家
level-5 = 中級
level-6 = 上級
level-7 = エキスパート
level-8 = マスター
level-9 = グランドマスター
level-10 = チャンピオン

## 対局画面

game-home = ホーム
game-over = 終局
game-show-result = 結果を見る
game-looking-back = 振り返り：{ $move } 手目の後（全 { $of } 手）
game-back-to-game = 対局に戻る
game-you-suffix = （あなた）
game-discs-in-hand = 持ち石：黒 { $black }、白 { $white }
game-your-move = あなたの番です（{ $color }）
game-thinking = { $name } が考えています…
game-to-move = { $color }の番
game-moves = 棋譜
game-copy = コピー
game-pass = パス
game-resign = 投了
game-really-resign = 本当に投了しますか？
game-yes-resign = はい、投了します
game-cancel = キャンセル
refused-flips-nothing = { $square } では石を返せません
refused-occupied = { $square } にはすでに石があります
refused-wall = { $square } は壁です
refused-outside-centre = { $square } は中央のマスではありません：最初の4石は d4、e4、d5、e5 に置きます
refused-not-now = { $square } には今は打てません
refused-not-your-move = まだあなたの番ではありません。
end-draw = 引き分け
end-you-win = あなたの勝ち
end-you-lose = あなたの負け
end-wins = { $color }の勝ち
end-score = 黒 { $black } – { $white } 白
end-copy-transcript = 棋譜をコピー
end-see-board = 盤を見る

## ネット対局

net-starting = 開始中…
net-connecting = 接続中
net-waiting = 相手を待っています
net-proposing-rematch = { $name } に再戦を申し込んでいます
net-awaiting-rematch = { $name } からの再戦の申し込みを待っています
net-reconnecting = 再接続中
net-opponent-offline = 相手がオフライン — 再接続中
net-checking-keys = 鍵を確認し、コインを投げています
net-playing = 対局中
net-game-over = 終局
net-stopped = 停止

## 出来事

notice-you-no-move = 打てる手がありません：{ $color }はパスです。
notice-you-no-discs = 石が残っていません：{ $color }はパスです。
notice-computer-no-move = コンピュータに打てる手がありません：{ $color }はパスです。
notice-computer-no-discs = コンピュータの石が残っていません：{ $color }はパスです。
notice-skipped = { $color }は打てる手がないのでパスです。
notice-colours-settled = 色が決まりました：あなたは{ $color }です。
notice-you-chose-tie = あなたの選択：同数なら{ $color }の勝ち。
notice-you-chose-color = あなたは{ $color }を選びました。
notice-they-chose-tie = 相手の選択：同数なら{ $color }の勝ち。
notice-they-chose-color = 相手は{ $color }を選びました。
notice-rejected = 相手からのデータを拒否しました：{ $why }
notice-peer-rejected = 相手が拒否しました：{ $why }
notice-move-refused = 打てませんでした：{ $why }
notice-halted = 対局が中断されました：{ $why }
notice-rematch-offered = 相手が再戦を申し込んでいます。

net-heading = オンライン対局
net-opponent = 相手
net-room-code = ルームコード：
net-ended = 対局は終了しました。
net-opponent-is = 相手：{ $name }
net-status = 状態：{ $status }
net-copy-watch-code = 観戦コードをコピー
net-opponent-key = 相手：{ $name }（{ $key }）
net-safety-words = 確認用の言葉：{ $words }
net-safety-why = 間に誰も入っていなければ、相手にも同じ言葉（と同じコード { $code }）が表示されます。必要なら声に出して照合してください。
net-connected-direct = 接続済み（直接）
net-connected-relayed = 接続済み（中継）
net-connected = 接続済み
net-offline = 相手がオフライン
net-rematch-offered = 相手が再戦を申し込んでいます：同じルールで、コインを投げ直します。
net-accept = 承諾
net-decline = 断る
net-choose-tie-winner = くじであなたが選ぶことになりました：石が同数のとき、どちらの色の勝ちにしますか？
net-choose-color = どちらの色で打ちますか？
net-opponent-choosing = くじで決まるルールに従い、相手が選んでいます。
net-your-clock = あなたの持ち時間：残り { $left }
net-their-clock = 相手の持ち時間：残り { $left }
net-log-saved = 署名付きログを保存しました：{ $path }
net-submit = ランキングに登録
net-rematch = 再戦
net-wait-rematch = 再戦を待つ
analyse-game = 対局を分析
net-no-log = ログがありません
net-copy-ggf = GGF をコピー
net-download-log = 署名付きログをダウンロード

## 招待（盤の表示前）

invite-board-appears = 両者が接続してコインを投げると、盤が表示されます。
invite-send-link = このリンクを友達に送ってください：
invite-phone = 同じネットワーク上のスマートフォンなら、カメラで開けます。
invite-or-code = またはコードを読み上げてください：
invite-read-code = このコードを友達に読み上げるか、送ってください：
invite-copy-code = コードをコピー
invite-copy-invite = 招待をコピー
invite-text = リバーシで対局しましょう：リバーシを開き、「対局に参加」を選んで { $code } を入力してください
invite-link-how = リンクを開くと、何もインストールせずにブラウザで対局できます。リバーシをインストール済みなら「対局に参加」に貼り付けることもできます。接続してコインを投げると、盤が表示されます。
invite-code-how = 相手はリバーシの「対局に参加」から参加します。接続してコインを投げると、盤が表示されます。

net-reconnect-attempt = 再接続中（{ $attempt } 回目、次は { $secs } 秒後）
invite-what-the-code-protects = コードの秘密はサーバーに届きません。サーバーもネットワーク上の誰も、友達の代わりに参加したり、あなたの代わりに応答したりはできません。ただし、コードを聞いたり見たりした人にはできるので、友達にだけ伝えてください。リンクにはあなたの鍵全体も含まれます。確実を期すなら、接続後に確認用のコードを照合してください。

## コンピュータとの対局

local-heading = あなた 対 コンピュータ
local-computer = コンピュータ
local-level = レベル { $level }（{ $name }）
local-cannot-move = コンピュータが打てません：{ $why }
local-rematch = 再戦（色を交代）
local-summary = あなた（{ $color }）対 レベル { $level } のコンピュータ
hint = ヒント
hint-looking = ヒントを探しています…
hint-exact = ヒント：{ $square } { $value }（確定）
hint-estimate = ヒント：{ $square } { $value }（推定）

## 観戦

watch-paste = プレイヤーが共有した観戦コード（GAME_ID@SERVER）を貼り付けてください：
watch-watch = 観戦
watch-watching = { $code } を観戦中
watch-unknown = （未定）
watch-black = 黒：{ $name }
watch-white = 白：{ $name }
watch-choosing = 色を選んでいます（同数ルールはくじで決定）。
watch-over-win = 終局：{ $name } の勝ち（{ $how }）
watch-over-draw = 終局：引き分け（{ $how }）
watch-hosts = { $host } がホスト、{ $guest } が参加。コインはまだ投げられていません
watch-clock = { $name } の持ち時間：残り { $left }

## ログビューア

viewer-unreadable = ドロップされたファイルを読み込めませんでした
viewer-heading = 対局ログ
viewer-file = ファイル：
viewer-file-named = ファイル：{ $path }
viewer-drop = またはログファイルをこのウィンドウにドロップしてください。
viewer-does-not-verify = 検証に失敗：{ $why }
viewer-move-of = { $move } 手目（全 { $of } 手）
viewer-previous = ◀ 前へ
viewer-next = 次へ ▶
viewer-verified = 検証済み：全 { $records } 件の記録を確認しました（署名、チェーン、すべての手）
viewer-players = 黒：{ $black } — 白：{ $white }
viewer-rules = ルール：{ $rules }
viewer-result = 結果：{ $result }
viewer-unfinished = 結果：未終了

counts = 黒 { $black } — 白 { $white }

## 分析

analysis-graph = 黒から見た1手ごとの評価（±{ $scale } 石）。色付きの点：疑問手、悪手、大悪手。
analysis-working = { $move } 手目を分析中（全 { $of } 手）…
analysis-done = 分析完了：深さ { $depth }、空き { $empties } マスから完全読み。
analysis-exact = { $value }（確定）
analysis-move = { $number } 手目：{ $color } { $square } { $value }；最善 { $best } { $best_value }；{ $lost } 石の損
analysis-inaccuracy = 疑問手
analysis-mistake = 悪手
analysis-blunder = 大悪手

## 設定

settings-language = 言語
settings-language-system = システム（{ $name }）
settings-name = あなたの名前
settings-server = シグナリングサーバー（空欄：内蔵、LAN 対戦用）
settings-ice = STUN/TURN サーバー
settings-turn-user = TURN ユーザー
settings-turn-password = TURN パスワード
settings-animations = 石を返すアニメーション
settings-move-time = コンピュータの1手あたりの思考時間（秒）
settings-book = コンピュータは最初の数手を定石ブックから打つ（レベル8–10）
settings-pace = コンピュータの応手を表示するまでの時間（ミリ秒）
settings-sound = 効果音
settings-dark = ダークテーマ
settings-notify = 自分の対局で自分の番になったら通知する
settings-key-error = あなたの鍵：{ $why }
settings-leaderboard = 終わった対局をこのシグナリングサーバーのランキングに記録する（相手も参加している場合）

## あなたの鍵

key-heading = あなたの鍵
key-what = あなたの鍵 { $fingerprint } はあなたの手に署名し、レーティングもこの鍵に結び付きます。別のブラウザやデスクトップ版で使うには、エクスポートしてください。
key-passphrase = パスフレーズ（{ $chars } 文字以上）
key-again = パスフレーズをもう一度（エクスポート用）
key-export = 鍵をエクスポート
key-paste = または、別の場所でエクスポートした鍵（reversi-identity-….txt ファイル）を貼り付けて、ここで使えるようにします：
key-replace = ここの鍵を置き換える（元の鍵は削除せずに保管されます）
key-import = 鍵をインポート
key-working = 処理中：推測されにくいよう、パスフレーズの処理にはわざと時間をかけています…

saved-game-broken = 保存された対局を復元できません：{ $why }
title-your-move = あなたの番 — リバーシ

link-unknown-part = リンクに不明な部分があります：{ $part }
link-level = コンピュータのレベルは 1–10 です（{ $found } ではありません）
link-color = 色は black、white、random のいずれかです（{ $found } ではありません）
link-name = リンク内の名前は 1–{ $max } 文字です
link-no-game = リンクに対局が指定されていません：{ $why }

## あなたの対局

games-your-move = あなたの番（{ $color }）
games-their-move = 相手の番（{ $color }）
games-time-up = 時間切れ
games-left = 残り { $time }

key-same = { $fingerprint } はすでにここでのあなたの鍵です
key-new = あなたの鍵は { $fingerprint } になりました
key-replaced = あなたの鍵は { $fingerprint } になりました。以前の鍵は { $previous } に保管されています
key-exported-to = { $path } にエクスポートしました
key-downloaded = エクスポートしました：{ $name } をダウンロードしました
key-cannot-start = 開始できません：{ $why }
key-job-stopped = 処理が停止しました

## ランキング

leaderboard-joined = { $server } のランキングに参加しました。
leaderboard-left = { $server } のランキングから抜けました。
leaderboard-counted = { $server } のランキングに記録されました：対局 { $game }。
leaderboard-no-server = ランキングはシグナリングサーバー上にあります：上で設定してください（{ $why }）。
leaderboard-asking = ランキングに問い合わせ中…
leaderboard-failed = ランキング：{ $why }

## ルール、オプション、時間

preset-othello = 現代の対局：中央は交差配置、石は無制限、石数で勝敗
preset-reversi = 1883年の開始：最初の4石は中央に自由に置く。空きマスは勝者のもの
preset-classic = 1880年代のルール：自由な開始、各32石、石数で勝敗
preset-ravensburger = 先手が中央に2石を置き、交差か平行の開始を選ぶ
preset-torus = 盤の端がつながったオセロ
option-preset = 既定
option-free = 自由
option-double = 二重
option-unlimited = 無制限
option-count = 石数
option-empties = 空きマス
option-draw = 引き分け
option-plane = 平面
option-torus = トーラス
unit-days = { $n }日
unit-hours = { $n }時間
unit-minutes = { $n }分
unit-seconds = { $n }秒
watch-asking = { $server } に対局を問い合わせています…
watch-following = 対局を観戦中
watch-out-of-reach = 郵便受けに届きません（{ $why }）。再試行します
watch-not-yet-there = 対局が郵便受けに届くのを待っています
