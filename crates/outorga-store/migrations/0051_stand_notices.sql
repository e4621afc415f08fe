-- The notice to a holder before the authority moves the holder's fixed
-- stand, where the law requires one (Santa Maria de Jetibá art. 28, § 1º):
-- the stand held when notified and the one it would move to, the act and
-- its grounds of public interest, the day the holder was notified and the
-- last day of the answer (the rulebook's `stand_relocation_response` limit,
-- counted when recorded), the holder's answer when given, and the day the
-- relocation it preceded was made (NULL: not yet). Numbered per permit.
CREATE TABLE stand_notices (
    jurisdiction TEXT NOT NULL,
    service TEXT NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    stand TEXT NOT NULL,
    destination TEXT NOT NULL,
    act TEXT NOT NULL,
    grounds TEXT NOT NULL,
    notified_on TEXT NOT NULL,
    answer_until TEXT NOT NULL,
    answered_on TEXT,
    answer TEXT,
    relocated_on TEXT,
    citations TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, service, number, seq),
    FOREIGN KEY (jurisdiction, service, number) REFERENCES permits (jurisdiction, service, number),
    FOREIGN KEY (jurisdiction, stand) REFERENCES stands (jurisdiction, code),
    FOREIGN KEY (jurisdiction, destination) REFERENCES stands (jurisdiction, code),
    CHECK ((answered_on IS NULL) = (answer IS NULL)),
    CHECK (answer_until >= notified_on)
);
