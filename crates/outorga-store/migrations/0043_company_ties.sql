-- What ties a carrier to another (Amapá art. 9º): its partners with their
-- share of the voting capital, its directors (directors, managing partners,
-- administrators) and its business group, as its articles of association
-- and their last amendment say — declared as a whole, so a declaration with
-- no member says there is none (no declaration: not known); and, for a
-- person, their spouse and relatives up to the third civil degree, declared
-- likewise.
CREATE TABLE company_declarations (
    jurisdiction TEXT NOT NULL,
    company TEXT NOT NULL,
    -- NULL: the company belongs to no business group.
    business_group TEXT,
    declared_on TEXT NOT NULL,
    act TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, company),
    FOREIGN KEY (jurisdiction, company) REFERENCES people (jurisdiction, document)
);

CREATE TABLE company_members (
    jurisdiction TEXT NOT NULL,
    company TEXT NOT NULL,
    member TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('partner', 'director')),
    -- A partner's share of the voting capital in percent, exact; NULL for a
    -- director.
    voting_share TEXT,
    PRIMARY KEY (jurisdiction, company, member, role),
    FOREIGN KEY (jurisdiction, company) REFERENCES company_declarations (jurisdiction, company),
    FOREIGN KEY (jurisdiction, member) REFERENCES people (jurisdiction, document)
);
CREATE INDEX company_members_by_member ON company_members (jurisdiction, member);

CREATE TABLE kinship_declarations (
    jurisdiction TEXT NOT NULL,
    person TEXT NOT NULL,
    declared_on TEXT NOT NULL,
    act TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, person),
    FOREIGN KEY (jurisdiction, person) REFERENCES people (jurisdiction, document)
);

CREATE TABLE kinship (
    jurisdiction TEXT NOT NULL,
    person TEXT NOT NULL,
    relative TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, person, relative),
    FOREIGN KEY (jurisdiction, person) REFERENCES kinship_declarations (jurisdiction, person),
    FOREIGN KEY (jurisdiction, relative) REFERENCES people (jurisdiction, document)
);
