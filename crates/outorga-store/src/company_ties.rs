//! What ties one carrier to another (Amapá art. 9º), as declared: a
//! company's partners with their share of the voting capital, its directors
//! and its business group (its articles of association and their last
//! amendment); a person's spouse and relatives up to the third civil degree.
//! Each declaration replaces the one before, as a whole: a declaration with
//! nobody in it says there is nobody, while no declaration leaves the tie
//! unknown — the engine's interdependence check then says "a verificar",
//! never "met".

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, guard};
use crate::dates::day;
use crate::text::{TextKind, checked, required};
use crate::{Kind, Store, StoreError, Tx};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use sqlx::Row;
use std::collections::BTreeMap;
use std::str::FromStr;

/// A member of a company: a partner (with its share of the voting capital,
/// in percent) or a director.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub document: String,
    /// `None`: a director (director, managing partner, administrator).
    pub voting_share: Option<Decimal>,
}

/// A company's ties as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyTies {
    pub partners: Vec<Member>,
    pub directors: Vec<String>,
    /// `None`: no business group.
    pub business_group: Option<String>,
    /// The articles or amendment the declaration rests on.
    pub act: String,
    pub declared_on: NaiveDate,
}

/// A share written as a decimal (point or comma), above 0 and at most 100.
pub fn parse_share(text: &str) -> Result<Decimal, StoreError> {
    let value = Decimal::from_str(&text.trim().replace(',', ".")).map_err(|_| {
        StoreError::invalid(
            "participacao",
            format!("`{text}`: escreva a participação em %, como 12,5"),
        )
    })?;
    if value <= Decimal::ZERO || value > Decimal::ONE_HUNDRED {
        return Err(StoreError::invalid(
            "participacao",
            format!("{value}%: a participação fica entre 0 e 100%"),
        ));
    }
    Ok(value.normalize())
}

async fn registered(tx: &mut Tx, jurisdiction: &str, document: &str) -> Result<Kind, StoreError> {
    crate::people::read(&mut **tx, jurisdiction, document)
        .await?
        .map(|r| r.kind)
        .ok_or_else(|| {
            StoreError::NotFound(format!(
                "{document} não está cadastrado em {jurisdiction}: cadastre-o antes"
            ))
        })
}

impl Store {
    /// Declares `company`'s partners, directors and business group, as of
    /// `ties.declared_on`, replacing the declaration before.
    pub async fn declare_company_ties(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        company: &str,
        ties: &CompanyTies,
    ) -> Result<(), StoreError> {
        let (company, kind) = crate::parse_document(company)?;
        if kind != Kind::Company {
            return Err(StoreError::invalid(
                "empresa",
                "sócios e diretores são de uma empresa (CNPJ)",
            ));
        }
        let act = required("ato", &ties.act, TextKind::Line)?.to_string();
        let group = ties
            .business_group
            .as_deref()
            .map(|g| checked("grupo", g, TextKind::Name).map(str::to_string))
            .transpose()?
            .filter(|g| !g.is_empty());
        let mut members: BTreeMap<(String, &str), Option<Decimal>> = BTreeMap::new();
        let mut total = Decimal::ZERO;
        for p in &ties.partners {
            let (doc, _) = crate::parse_document(&p.document)?;
            let share = p.voting_share.ok_or_else(|| {
                StoreError::invalid(
                    "participacao",
                    format!("o sócio {doc} não tem participação"),
                )
            })?;
            total += share;
            if members
                .insert((doc.clone(), "partner"), Some(share))
                .is_some()
            {
                return Err(StoreError::invalid(
                    "socios",
                    format!("{doc} aparece duas vezes entre os sócios"),
                ));
            }
        }
        if total > Decimal::ONE_HUNDRED {
            return Err(StoreError::invalid(
                "participacao",
                format!("os sócios somam {total}% do capital votante: no máximo 100%"),
            ));
        }
        for d in &ties.directors {
            let (doc, _) = crate::parse_document(d)?;
            members.insert((doc, "director"), None);
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        registered(&mut tx, jurisdiction, &company).await?;
        for (doc, _) in members.keys() {
            if *doc == company {
                return Err(StoreError::invalid(
                    "socios",
                    "a empresa não é sócia de si mesma",
                ));
            }
            registered(&mut tx, jurisdiction, doc).await?;
        }
        let mut rows = Vec::new();
        for (table, condition) in [
            ("company_members", "jurisdiction = $1 AND company = $2"),
            ("company_declarations", "jurisdiction = $1 AND company = $2"),
        ] {
            guard::unchanged_where(
                &mut tx,
                &self.audit.schema,
                table,
                condition,
                &[jurisdiction.into(), (&company).into()],
            )
            .await?;
        }
        for row in sqlx::query(
            "DELETE FROM company_members WHERE jurisdiction = $1 AND company = $2 RETURNING member, role",
        )
        .bind(jurisdiction)
        .bind(&company)
        .fetch_all(&mut *tx)
        .await?
        {
            rows.push(RowRef::new(
                "company_members",
                [
                    jurisdiction.into(),
                    (&company).into(),
                    row.try_get::<String, _>("member")?.into(),
                    row.try_get::<String, _>("role")?.into(),
                ],
            ));
        }
        sqlx::query(
            "INSERT INTO company_declarations (jurisdiction, company, business_group, declared_on, act) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (jurisdiction, company) DO UPDATE SET \
             business_group = excluded.business_group, declared_on = excluded.declared_on, act = excluded.act",
        )
        .bind(jurisdiction)
        .bind(&company)
        .bind(group.clone())
        .bind(ties.declared_on.to_string())
        .bind(&act)
        .execute(&mut *tx)
        .await?;
        rows.push(RowRef::new(
            "company_declarations",
            [jurisdiction.into(), (&company).into()],
        ));
        for ((member, role), share) in &members {
            sqlx::query(
                "INSERT INTO company_members (jurisdiction, company, member, role, voting_share) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(jurisdiction)
            .bind(&company)
            .bind(member)
            .bind(*role)
            .bind(share.map(|s| s.to_string()))
            .execute(&mut *tx)
            .await?;
            rows.push(RowRef::new(
                "company_members",
                [
                    jurisdiction.into(),
                    (&company).into(),
                    member.into(),
                    (*role).into(),
                ],
            ));
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "company.ties",
                jurisdiction: Some(jurisdiction),
                subject: &format!("person:{company}"),
                detail: serde_json::json!({
                    "partners": ties.partners.len(), "directors": ties.directors.len(),
                    "business_group": group, "act": act,
                }),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Declares `person`'s spouse and relatives up to the third civil degree
    /// (perhaps none), replacing the declaration before.
    pub async fn declare_relatives(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        person: &str,
        (relatives, act, on): (&[String], &str, NaiveDate),
    ) -> Result<(), StoreError> {
        let (person, _) = crate::parse_document(person)?;
        let act = required("ato", act, TextKind::Line)?.to_string();
        let mut listed = Vec::new();
        for r in relatives {
            let (doc, _) = crate::parse_document(r)?;
            if doc != person && !listed.contains(&doc) {
                listed.push(doc);
            }
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        registered(&mut tx, jurisdiction, &person).await?;
        for doc in &listed {
            registered(&mut tx, jurisdiction, doc).await?;
        }
        let mut rows = Vec::new();
        for table in ["kinship", "kinship_declarations"] {
            guard::unchanged_where(
                &mut tx,
                &self.audit.schema,
                table,
                "jurisdiction = $1 AND person = $2",
                &[jurisdiction.into(), (&person).into()],
            )
            .await?;
        }
        for row in sqlx::query(
            "DELETE FROM kinship WHERE jurisdiction = $1 AND person = $2 RETURNING relative",
        )
        .bind(jurisdiction)
        .bind(&person)
        .fetch_all(&mut *tx)
        .await?
        {
            rows.push(RowRef::new(
                "kinship",
                [
                    jurisdiction.into(),
                    (&person).into(),
                    row.try_get::<String, _>("relative")?.into(),
                ],
            ));
        }
        sqlx::query(
            "INSERT INTO kinship_declarations (jurisdiction, person, declared_on, act) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (jurisdiction, person) DO UPDATE SET declared_on = excluded.declared_on, act = excluded.act",
        )
        .bind(jurisdiction)
        .bind(&person)
        .bind(on.to_string())
        .bind(&act)
        .execute(&mut *tx)
        .await?;
        rows.push(RowRef::new(
            "kinship_declarations",
            [jurisdiction.into(), (&person).into()],
        ));
        for doc in &listed {
            sqlx::query("INSERT INTO kinship (jurisdiction, person, relative) VALUES ($1, $2, $3)")
                .bind(jurisdiction)
                .bind(&person)
                .bind(doc)
                .execute(&mut *tx)
                .await?;
            rows.push(RowRef::new(
                "kinship",
                [jurisdiction.into(), (&person).into(), doc.into()],
            ));
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "person.relatives",
                jurisdiction: Some(jurisdiction),
                subject: &format!("person:{person}"),
                detail: serde_json::json!({ "relatives": listed.len(), "act": act }),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A person's relatives as last declared, if declared.
    pub async fn relatives(
        &self,
        jurisdiction: &str,
        person: &str,
    ) -> Result<Option<Vec<String>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let found = relatives(&mut tx, jurisdiction, person).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// A company's ties as last declared, if declared.
    pub async fn company_ties(
        &self,
        jurisdiction: &str,
        company: &str,
    ) -> Result<Option<CompanyTies>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let found = read(&mut tx, jurisdiction, company).await?;
        tx.commit().await?;
        Ok(found)
    }
}

/// A company's declaration, read in `tx`.
pub(crate) async fn read(
    tx: &mut Tx,
    jurisdiction: &str,
    company: &str,
) -> Result<Option<CompanyTies>, StoreError> {
    let Some(head) = sqlx::query(
        "SELECT business_group, declared_on, act FROM company_declarations \
         WHERE jurisdiction = $1 AND company = $2",
    )
    .bind(jurisdiction)
    .bind(company)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(None);
    };
    let mut ties = CompanyTies {
        partners: Vec::new(),
        directors: Vec::new(),
        business_group: head.try_get("business_group")?,
        act: head.try_get("act")?,
        declared_on: day(&head.try_get::<String, _>("declared_on")?)?,
    };
    for row in sqlx::query(
        "SELECT member, role, voting_share FROM company_members WHERE jurisdiction = $1 AND company = $2 \
         ORDER BY role, member",
    )
    .bind(jurisdiction)
    .bind(company)
    .fetch_all(&mut **tx)
    .await?
    {
        let member: String = row.try_get("member")?;
        let share: Option<String> = row.try_get("voting_share")?;
        match share {
            Some(share) => ties.partners.push(Member {
                document: member,
                voting_share: Some(
                    Decimal::from_str(&share).map_err(|e| StoreError::Corrupt(e.to_string()))?,
                ),
            }),
            None => ties.directors.push(member),
        }
    }
    Ok(Some(ties))
}

/// A person's declared relatives, if declared.
pub(crate) async fn relatives(
    tx: &mut Tx,
    jurisdiction: &str,
    person: &str,
) -> Result<Option<Vec<String>>, StoreError> {
    let declared = sqlx::query(
        "SELECT 1 AS one FROM kinship_declarations WHERE jurisdiction = $1 AND person = $2",
    )
    .bind(jurisdiction)
    .bind(person)
    .fetch_optional(&mut **tx)
    .await?;
    if declared.is_none() {
        return Ok(None);
    }
    sqlx::query("SELECT relative FROM kinship WHERE jurisdiction = $1 AND person = $2")
        .bind(jurisdiction)
        .bind(person)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| Ok(row.try_get::<String, _>("relative")?))
        .collect::<Result<Vec<_>, StoreError>>()
        .map(Some)
}
