-- The ledger's second part (issue 13).
--
-- The parcels of a plan, each with its due day (moved to a business day as
-- the law says) and its quantity in the fine's unit, written when the debt
-- is split: the agenda reads the unpaid ones by day.
CREATE TABLE parcels (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    parcel INTEGER NOT NULL,
    due_on TEXT NOT NULL,
    quantity TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq, parcel),
    FOREIGN KEY (jurisdiction, year, number, seq) REFERENCES debts (jurisdiction, year, number, seq)
);
CREATE INDEX parcels_falling_due ON parcels (jurisdiction, due_on, year, number, seq, parcel);

-- The day the balance of a plan fell due at once (Teófilo Otoni art. 98,
-- § 3º), recorded when it is paid: the debt is then settled.
ALTER TABLE debts ADD COLUMN accelerated_on TEXT;

-- A refund asked for a debt paid (Teófilo Otoni art. 96, § 3º: a defense or
-- appeal upheld after payment, a debt paid twice, a wrong assessment), due
-- within the law's limit from the request, and the day it was paid back.
CREATE TABLE refunds (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    requested_on TEXT NOT NULL,
    ground TEXT NOT NULL CHECK (ground IN ('upheld', 'paid_twice', 'wrong_assessment')),
    cents BIGINT NOT NULL CHECK (cents > 0),
    due_by TEXT NOT NULL,
    article TEXT,
    refunded_on TEXT,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number, seq) REFERENCES debts (jurisdiction, year, number, seq)
);
CREATE INDEX refunds_due ON refunds (jurisdiction, due_by, year, number, seq)
    WHERE refunded_on IS NULL;

-- A bank's return file imported (FEBRABAN arrecadação, 150 positions): its
-- bank and sequence number (NSA) once, what it paid and what it could not.
CREATE TABLE bank_returns (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    bank INTEGER NOT NULL,
    nsa BIGINT NOT NULL,
    file_date TEXT NOT NULL,
    paid BIGINT NOT NULL,
    unmatched BIGINT NOT NULL,
    report TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, bank, nsa)
);

-- Revenue by month: payments by the day they were made.
CREATE INDEX payments_by_day ON payments (jurisdiction, paid_on);
