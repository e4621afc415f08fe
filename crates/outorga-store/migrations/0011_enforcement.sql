-- Autos de infração, numbered per jurisdiction and year without gaps (the
-- number comes from `counters` inside the transaction that writes the auto).
CREATE TABLE autos (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    rulebook TEXT NOT NULL,
    infraction TEXT NOT NULL,
    offender TEXT NOT NULL,
    service TEXT,
    permit_number BIGINT,
    plate TEXT,
    committed_at TEXT NOT NULL,
    place TEXT NOT NULL,
    description TEXT NOT NULL,
    inspector TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('issued', 'notified', 'archived', 'judged', 'appealed', 'final', 'annulled')),
    -- The engine's proposal (sanctions, points, citations) as JSON.
    proposal TEXT NOT NULL,
    notify_by TEXT,
    notified_on TEXT,
    defense_by TEXT,
    defense_on TEXT,
    judged_on TEXT,
    appeal_by TEXT,
    appealed_on TEXT,
    final_on TEXT,
    -- Points added to the offender's and the holder's records when final
    -- (exact decimals as text).
    points_offender TEXT NOT NULL,
    points_holder TEXT NOT NULL,
    holder TEXT,
    PRIMARY KEY (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, offender) REFERENCES people (jurisdiction, document)
);
CREATE INDEX autos_offender ON autos (jurisdiction, offender);

-- Every step of an auto's process, with its date and citations.
CREATE TABLE auto_steps (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    step TEXT NOT NULL,
    on_date TEXT NOT NULL,
    detail TEXT NOT NULL,
    citations TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES autos (jurisdiction, year, number)
);

-- Sanctions applied when an auto became final: suspensions with start and
-- end, cassations, bars, impediments (fines become debts).
CREATE TABLE applied_sanctions (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    target TEXT,
    starts TEXT NOT NULL,
    ends TEXT,
    citations TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES autos (jurisdiction, year, number)
);

-- Fines owed: in the fine's unit (VRTM, UPFTO, CTM, BRL) as an exact decimal
-- text; surcharges are worked out by the engine on the day of payment.
CREATE TABLE debts (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    debtor TEXT NOT NULL,
    unit TEXT NOT NULL,
    quantity TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    due_on TEXT NOT NULL,
    from_process INTEGER NOT NULL CHECK (from_process IN (0, 1)),
    -- Parcels agreed (NULL: paid at once).
    installments INTEGER,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES autos (jurisdiction, year, number)
);
CREATE INDEX debts_debtor ON debts (jurisdiction, debtor);

-- Payments: the whole debt (parcel 1 of 1) or one parcel of an installment
-- plan, with what was due on the day (surcharges included).
CREATE TABLE payments (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    parcel INTEGER NOT NULL,
    paid_on TEXT NOT NULL,
    quantity TEXT NOT NULL,
    brl TEXT,
    PRIMARY KEY (jurisdiction, year, number, seq, parcel),
    FOREIGN KEY (jurisdiction, year, number, seq) REFERENCES debts (jurisdiction, year, number, seq)
);
