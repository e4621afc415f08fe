-- Money (issue 13).
--
-- A fiscal unit's value recorded by the deployment from a day, with the act
-- that sets it (a decree's VRTM, Teófilo Otoni's yearly correction of the
-- UPFTO, art. 115: then the index and its percentage over the value in
-- force the day before). Never overwritten: a correction is a new record
-- naming the one it corrects (`corrects`, its `seq`), which then no longer
-- counts. `seq` numbers the unit's records in the jurisdiction.
CREATE TABLE unit_values (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    unit TEXT NOT NULL,
    seq INTEGER NOT NULL,
    since TEXT NOT NULL,
    value TEXT NOT NULL,
    act TEXT NOT NULL,
    index_name TEXT,
    index_percent TEXT,
    corrects INTEGER,
    PRIMARY KEY (jurisdiction, unit, seq)
);

-- A bus line's tariff coefficient approved by act from a day (Amapá art.
-- 20, § 3º: a readjustment is in force from its publication). The line's
-- own `coefficient` is the one it was registered with, in force until the
-- first of these; the mean tariff coefficient (art. 21) is worked out from
-- them on each day.
CREATE TABLE line_coefficients (
    jurisdiction TEXT NOT NULL,
    line TEXT NOT NULL,
    seq INTEGER NOT NULL,
    since TEXT NOT NULL,
    coefficient TEXT NOT NULL,
    act TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, line, seq),
    FOREIGN KEY (jurisdiction, line) REFERENCES lines (jurisdiction, code)
);

-- The ledger: a debt is an auto's fine (its place in the auto, `seq` 1…)
-- or a fee the law charges at its event (numbered per jurisdiction and year
-- in the `fee` series, `seq` 0), so `debts` no longer refers to `autos`;
-- rebuilt with what every debt now says: where it comes from, the rulebook
-- it is owed under, the fee's kind, the article and what it is for, and its
-- value in reais on issue when the unit's value was known. Payments record
-- the amount received in centavos, the means (a slip at a bank, PIX, cash
-- at the counter) and the receipt; the primary key still takes one payment
-- per parcel, so a debt is never paid twice.
CREATE TABLE ledger (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    origin TEXT NOT NULL CHECK (origin IN ('auto', 'fee')),
    rulebook TEXT NOT NULL,
    fee TEXT,
    article TEXT,
    purpose TEXT NOT NULL,
    permit BIGINT,
    debtor TEXT NOT NULL,
    unit TEXT NOT NULL,
    quantity TEXT NOT NULL,
    brl_on_issue TEXT,
    issued_on TEXT NOT NULL,
    due_on TEXT NOT NULL,
    from_process INTEGER NOT NULL CHECK (from_process IN (0, 1)),
    installments INTEGER,
    PRIMARY KEY (jurisdiction, year, number, seq),
    CHECK ((origin = 'fee') = (seq = 0))
);
INSERT INTO ledger (jurisdiction, year, number, seq, origin, rulebook, fee, article, purpose,
                    permit, debtor, unit, quantity, brl_on_issue, issued_on, due_on,
                    from_process, installments)
SELECT d.jurisdiction, d.year, d.number, d.seq, 'auto',
       (SELECT a.rulebook FROM autos a
         WHERE a.jurisdiction = d.jurisdiction AND a.year = d.year AND a.number = d.number),
       NULL, NULL, 'Multa', NULL, d.debtor, d.unit, d.quantity, NULL, d.issued_on, d.due_on,
       d.from_process, d.installments
FROM debts d;

CREATE TABLE ledger_payments (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    parcel INTEGER NOT NULL,
    paid_on TEXT NOT NULL,
    quantity TEXT NOT NULL,
    brl TEXT,
    cents BIGINT,
    means TEXT CHECK (means IN ('guia', 'pix', 'caixa')),
    receipt TEXT,
    PRIMARY KEY (jurisdiction, year, number, seq, parcel),
    FOREIGN KEY (jurisdiction, year, number, seq) REFERENCES ledger (jurisdiction, year, number, seq)
);
INSERT INTO ledger_payments (jurisdiction, year, number, seq, parcel, paid_on, quantity, brl)
SELECT jurisdiction, year, number, seq, parcel, paid_on, quantity, brl FROM payments;

DROP TABLE payments;
DROP TABLE debts;
ALTER TABLE ledger RENAME TO debts;
ALTER TABLE ledger_payments RENAME TO payments;
CREATE INDEX debts_listed ON debts (jurisdiction, issued_on, year, number, seq);
CREATE INDEX debts_by_debtor ON debts (jurisdiction, debtor, issued_on, year, number, seq);
CREATE INDEX debts_falling_due ON debts (jurisdiction, due_on, year, number, seq)
    WHERE installments IS NULL;
-- A receipt names one payment.
CREATE UNIQUE INDEX payments_receipt ON payments (jurisdiction, receipt);

-- What a debtor paid beyond what was due (an overpayment, a slip paid after
-- the debt was settled): a credit, until refunded or used.
CREATE TABLE credits (
    jurisdiction TEXT NOT NULL,
    person TEXT NOT NULL,
    seq INTEGER NOT NULL,
    cents BIGINT NOT NULL CHECK (cents > 0),
    arose_on TEXT NOT NULL,
    reason TEXT NOT NULL,
    -- The debt the money was paid for.
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    debt_seq INTEGER NOT NULL,
    PRIMARY KEY (jurisdiction, person, seq)
);

-- What a jurisdiction's payment slips carry, set by an administrator: the
-- FEBRABAN arrecadação agreement (segment, the company's identification, the
-- value identifier: 6–9) and the PIX key with the beneficiary's name and city.
CREATE TABLE payment_settings (
    jurisdiction TEXT NOT NULL PRIMARY KEY REFERENCES jurisdictions (id),
    segment INTEGER NOT NULL,
    company TEXT NOT NULL,
    value_id INTEGER NOT NULL,
    pix_key TEXT NOT NULL,
    beneficiary TEXT NOT NULL,
    city TEXT NOT NULL
);
