-- The mailbox: signed records of each game, checked before they are stored.
CREATE TABLE games (
    game_id TEXT PRIMARY KEY NOT NULL,   -- hex SHA-256 of the genesis record
    host_key TEXT NOT NULL,              -- hex ed25519 key
    guest_key TEXT,                      -- NULL until an open genesis is accepted
    room TEXT,                           -- the room the host filed it under
    records BIGINT NOT NULL,            -- how many records are stored
    head TEXT NOT NULL,                  -- hex hash of the last stored record
    ended BIGINT NOT NULL,              -- 1 once a record ended the game
    deadline_secs BIGINT NOT NULL,
    touched_ms BIGINT NOT NULL,         -- server time of the last record
    expires_ms BIGINT NOT NULL          -- server time after which it is dropped
);
CREATE INDEX games_host ON games (host_key);
CREATE INDEX games_guest ON games (guest_key);
CREATE INDEX games_room ON games (room);
CREATE INDEX games_expiry ON games (expires_ms);

CREATE TABLE records (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    bytes BYTEA NOT NULL,                 -- the record's canonical bytes
    PRIMARY KEY (game_id, seq)
);
