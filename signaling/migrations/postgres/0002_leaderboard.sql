-- The opt-in leaderboard: finished logs, audited when submitted, counted
-- while both players' latest signed statement says they joined.
CREATE TABLE leaderboard_members (
    player_key TEXT PRIMARY KEY NOT NULL,  -- hex ed25519 key
    member BIGINT NOT NULL,                  -- 1 joined, 0 left
    statement_ms BIGINT NOT NULL,            -- the statement's own timestamp
    statement TEXT NOT NULL                -- the signed statement (JSON)
);

CREATE TABLE leaderboard_games (
    game_id TEXT PRIMARY KEY NOT NULL,     -- hex SHA-256 of the genesis record
    last_hash TEXT NOT NULL,               -- hex hash of the record that ended it
    day BIGINT NOT NULL,                     -- UTC day of that record: the rating period
    host_key TEXT NOT NULL,
    host_name TEXT NOT NULL,
    guest_key TEXT NOT NULL,
    guest_name TEXT NOT NULL,
    host_points BIGINT NOT NULL,             -- 2 win, 1 draw, 0 loss
    conflicted BIGINT NOT NULL DEFAULT 0,    -- 1 once a different ending was submitted: not counted
    log BYTEA NOT NULL,                    -- the log file as submitted
    submitted_ms BIGINT NOT NULL
);
CREATE INDEX leaderboard_games_host ON leaderboard_games (host_key);
CREATE INDEX leaderboard_games_guest ON leaderboard_games (guest_key);
