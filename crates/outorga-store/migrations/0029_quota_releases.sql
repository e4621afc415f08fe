-- The places of a reserved share released to the other applicants where the
-- law says so (Santa Maria de Jetibá art. 2º, § 6º: the places reserved for
-- drivers with a disability and not filled go to the others): how many, on
-- which day, why and the article. The cap reads their sum per share.
CREATE TABLE quota_releases (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    service TEXT NOT NULL,
    quota TEXT NOT NULL,
    seq INTEGER NOT NULL,
    released_on TEXT NOT NULL,
    places BIGINT NOT NULL CHECK (places > 0),
    reason TEXT NOT NULL,
    citations TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, service, quota, seq)
);
