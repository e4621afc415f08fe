-- Every sign-in attempt whose password was checked: when, the user name as
-- typed (trimmed), the client's address and its network (the address for
-- IPv4, its /64 for IPv6: what the per-client limit counts), and whether
-- it succeeded (NULL while the password is being checked, so concurrent
-- attempts count each other). The failures of the last minute decide
-- whether the next attempt is checked at all; old rows are pruned
-- (`outorga user prune-sign-ins`).
CREATE TABLE sign_in_attempts (
    id TEXT PRIMARY KEY,
    at TEXT NOT NULL,
    name TEXT NOT NULL,
    client TEXT NOT NULL,
    network TEXT NOT NULL,
    succeeded INTEGER CHECK (succeeded IN (0, 1))
);
CREATE INDEX sign_in_attempts_by_name ON sign_in_attempts (name, at);
CREATE INDEX sign_in_attempts_by_network ON sign_in_attempts (network, at);
CREATE INDEX sign_in_attempts_by_time ON sign_in_attempts (at);

-- An API token may expire: from this moment on (UTC) it is refused like a
-- revoked one. NULL: it lasts until revoked.
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
