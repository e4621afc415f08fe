//! What a clerk records about a person beyond the register: the facts the
//! law's requirements read, the CNH, the address and contacts. A fact left
//! `None` is not recorded: requirements that read it are "to be checked".

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::text::{EARLIEST_YEAR, TextKind, checked, day_within, first_day, years_from};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::facts::{License, Person, PersonKind};
use outorga_core::model::Education;
use sqlx::Row;

/// The CNH (carteira nacional de habilitação) as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Cnh {
    /// 11 digits, with its two check digits.
    pub number: String,
    pub categories: Vec<String>,
    /// The "exerce atividade remunerada" remark.
    pub paid_activity: bool,
    pub first_issued: Option<NaiveDate>,
    pub expires: NaiveDate,
    pub suspended_until: Option<NaiveDate>,
}

/// A person's record beyond document and name.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    pub birth_date: Option<NaiveDate>,
    pub resident_since: Option<NaiveDate>,
    /// none, fundamental, medio, superior.
    pub education: Option<String>,
    pub disabled: Option<bool>,
    pub public_employee: Option<bool>,
    pub transport_operator: Option<bool>,
    pub final_conviction: Option<bool>,
    /// Documents presented, by the names the rulebooks use.
    pub documents: Option<Vec<String>>,
    pub cnh: Option<Cnh>,
    pub street: String,
    pub district: String,
    pub city: String,
    pub postal_code: String,
    pub phone: String,
    pub email: String,
}

/// The CNH number with its check digits right (the DENATRAN algorithm: the
/// first digit weighs 9..1 over the base, the second 1..9, with the
/// correction when the first is 10 or more).
pub fn parse_cnh_number(text: &str) -> Result<String, StoreError> {
    let invalid = |reason: &str| StoreError::Invalid {
        field: "cnh.número",
        reason: format!("`{text}`: {reason}"),
    };
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | ' '))
        .collect();
    if digits.len() != 11 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid("o número da CNH tem 11 dígitos"));
    }
    let v: Vec<u32> = digits.bytes().map(|b| u32::from(b - b'0')).collect();
    if v.iter().all(|d| *d == v[0]) {
        return Err(invalid("número inválido (dígitos todos iguais)"));
    }
    let first_sum: u32 = v[..9].iter().zip((1..=9).rev()).map(|(d, w)| d * w).sum();
    let mut first = first_sum % 11;
    let correction = if first >= 10 {
        first = 0;
        2
    } else {
        0
    };
    let second_sum: u32 = v[..9].iter().zip(1..=9).map(|(d, w)| d * w).sum();
    let second = (second_sum % 11 + 11 - correction) % 11;
    let second = if second >= 10 { 0 } else { second };
    if v[9] == first && v[10] == second {
        Ok(digits)
    } else {
        Err(invalid("dígitos verificadores não conferem"))
    }
}

/// A CNH number with valid check digits, different for each `seed` (demo data).
pub(crate) fn demo_cnh(seed: u32) -> String {
    (0u32..)
        .map(|k| format!("{:09}00", 300_000_000 + seed * 1_009 + k))
        .find_map(|base| {
            (0..100).find_map(|tail| {
                let candidate = format!("{}{tail:02}", &base[..9]);
                parse_cnh_number(&candidate).ok()
            })
        })
        .unwrap_or_default()
}

/// The profile with its CNH number, categories, dates and e-mail checked
/// (categories upper-cased), or the first field that is wrong.
/// The most documents a profile lists as presented.
pub const MAX_DOCUMENTS: usize = 50;

/// The profile's days within what can be true on `today`: born since 1900
/// and not after today, resident and first licensed not after today, a
/// licence's validity and suspension within 20 years.
fn check_days(p: &Profile, today: NaiveDate) -> Result<(), StoreError> {
    let past = (first_day(EARLIEST_YEAR), today);
    let ahead = (first_day(EARLIEST_YEAR), years_from(today, 20));
    for (field, day, range) in [
        ("nascimento", p.birth_date, past),
        ("residente_desde", p.resident_since, past),
        (
            "cnh.primeira_habilitação",
            p.cnh.as_ref().and_then(|c| c.first_issued),
            past,
        ),
        ("cnh.validade", p.cnh.as_ref().map(|c| c.expires), ahead),
        (
            "cnh.suspensa_até",
            p.cnh.as_ref().and_then(|c| c.suspended_until),
            ahead,
        ),
    ] {
        if let Some(day) = day {
            day_within(field, day, range)?;
        }
    }
    Ok(())
}

pub fn check_profile(profile: &Profile) -> Result<Profile, StoreError> {
    let mut p = profile.clone();
    for (field, value, kind) in [
        ("logradouro", &mut p.street, TextKind::Line),
        ("bairro", &mut p.district, TextKind::Name),
        ("cidade", &mut p.city, TextKind::Name),
        ("cep", &mut p.postal_code, TextKind::Code),
        ("telefone", &mut p.phone, TextKind::Code),
        ("email", &mut p.email, TextKind::Line),
    ] {
        *value = checked(field, value, kind)?.to_string();
    }
    if let Some(documents) = &mut p.documents {
        if documents.len() > MAX_DOCUMENTS {
            return Err(StoreError::Invalid {
                field: "documentos",
                reason: format!("tem {} itens; o máximo é {MAX_DOCUMENTS}", documents.len()),
            });
        }
        for document in documents.iter_mut() {
            *document = checked("documentos", document, TextKind::Name)?.to_string();
        }
    }
    if let Some(education) = &p.education
        && Education::parse(education).is_none()
    {
        return Err(StoreError::Invalid {
            field: "escolaridade",
            reason: format!("`{education}`: use none, fundamental, medio ou superior"),
        });
    }
    if let Some(cnh) = &mut p.cnh {
        cnh.number = parse_cnh_number(&cnh.number)?;
        cnh.categories = cnh
            .categories
            .iter()
            .map(|c| c.trim().to_uppercase())
            .filter(|c| !c.is_empty())
            .collect();
        if let Some(bad) = cnh
            .categories
            .iter()
            .find(|c| !["ACC", "A", "B", "C", "D", "E"].contains(&c.as_str()))
        {
            return Err(StoreError::Invalid {
                field: "cnh.categorias",
                reason: format!("`{bad}` não é categoria da CNH (ACC, A, B, C, D, E)"),
            });
        }
        if cnh.first_issued.is_some_and(|first| first > cnh.expires) {
            return Err(StoreError::Invalid {
                field: "cnh.primeira_habilitação",
                reason: "a primeira habilitação é anterior à validade".into(),
            });
        }
    }
    if let (Some(birth), Some(resident)) = (p.birth_date, p.resident_since)
        && resident < birth
    {
        return Err(StoreError::Invalid {
            field: "residente_desde",
            reason: "a residência não começa antes do nascimento".into(),
        });
    }
    if !p.email.is_empty() && !p.email.contains('@') {
        return Err(StoreError::Invalid {
            field: "email",
            reason: format!("`{}` não é um endereço de e-mail", p.email),
        });
    }
    Ok(p)
}

fn date(text: Option<String>) -> Option<NaiveDate> {
    text.and_then(|t| t.parse().ok())
}

fn flag(value: Option<i64>) -> Option<bool> {
    value.map(|v| v != 0)
}

fn list(text: Option<String>) -> Option<Vec<String>> {
    text.and_then(|t| serde_json::from_str(&t).ok())
}

const COLUMNS: &str = "kind, birth_date, resident_since, education, disabled, public_employee, \
    transport_operator, final_conviction, documents, cnh_number, cnh_categories, cnh_paid_activity, \
    cnh_first_issued, cnh_expires, cnh_suspended_until, street, district, city, postal_code, phone, email";

fn profile_of(row: &sqlx::any::AnyRow) -> Result<Profile, StoreError> {
    let cnh_number: Option<String> = row.try_get("cnh_number")?;
    let cnh = match (cnh_number, date(row.try_get("cnh_expires")?)) {
        (Some(number), Some(expires)) => Some(Cnh {
            number,
            categories: list(row.try_get("cnh_categories")?).unwrap_or_default(),
            paid_activity: flag(row.try_get("cnh_paid_activity")?).unwrap_or(false),
            first_issued: date(row.try_get("cnh_first_issued")?),
            expires,
            suspended_until: date(row.try_get("cnh_suspended_until")?),
        }),
        _ => None,
    };
    Ok(Profile {
        birth_date: date(row.try_get("birth_date")?),
        resident_since: date(row.try_get("resident_since")?),
        education: row.try_get("education")?,
        disabled: flag(row.try_get("disabled")?),
        public_employee: flag(row.try_get("public_employee")?),
        transport_operator: flag(row.try_get("transport_operator")?),
        final_conviction: flag(row.try_get("final_conviction")?),
        documents: list(row.try_get("documents")?),
        cnh,
        street: row.try_get("street")?,
        district: row.try_get("district")?,
        city: row.try_get("city")?,
        postal_code: row.try_get("postal_code")?,
        phone: row.try_get("phone")?,
        email: row.try_get("email")?,
    })
}

/// The engine's view of a recorded person (facts not recorded stay unknown;
/// debts are filled in by the caller, who knows the day).
pub(crate) fn engine_person(kind: &str, profile: &Profile) -> Person {
    Person {
        kind: if kind == "company" {
            PersonKind::Company
        } else {
            PersonKind::Person
        },
        birth_date: profile.birth_date,
        disabled: profile.disabled,
        resident_since: profile.resident_since,
        education: profile.education.as_deref().and_then(Education::parse),
        public_employee: profile.public_employee,
        transport_operator: profile.transport_operator,
        documents: profile.documents.clone(),
        convictions: profile.final_conviction.map(|convicted| {
            if convicted {
                vec![outorga_core::facts::Conviction {
                    date: None,
                    is_final: true,
                }]
            } else {
                Vec::new()
            }
        }),
        license: profile.cnh.as_ref().map(|cnh| License {
            categories: Some(cnh.categories.clone()),
            paid_activity: Some(cnh.paid_activity),
            first_issued: cnh.first_issued,
            expires: Some(cnh.expires),
            suspended_until: Some(cnh.suspended_until),
        }),
        ..Person::default()
    }
}

/// The kind and profile of a registered person, read in `tx`.
pub(crate) async fn read_profile(
    tx: &mut Tx,
    jurisdiction: &str,
    document: &str,
) -> Result<Option<(String, Profile)>, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM people WHERE jurisdiction = $1 AND document = $2"
    )))
    .bind(jurisdiction)
    .bind(document)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|row| Ok((row.try_get("kind")?, profile_of(&row)?)))
        .transpose()
}

fn text_date(date: Option<NaiveDate>) -> Option<String> {
    date.map(|d| d.to_string())
}

impl Store {
    /// Replaces what is recorded about a registered person.
    pub async fn update_profile(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        document: &str,
        profile: &Profile,
    ) -> Result<Profile, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let done = self
            .update_profile_in(&mut tx, change, jurisdiction, document, profile)
            .await?;
        tx.commit().await?;
        Ok(done)
    }

    /// The same, within the caller's transaction (the import runs rows in its own).
    pub(crate) async fn update_profile_in(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        jurisdiction: &str,
        document: &str,
        profile: &Profile,
    ) -> Result<Profile, StoreError> {
        let (document, _) = crate::parse_document(document)?;
        let p = check_profile(profile)?;
        check_days(&p, change.at.date())?;
        crate::audit::guard::unchanged(
            tx,
            &self.audit.schema,
            &[RowRef::new(
                "people",
                [jurisdiction.into(), (&document).into()],
            )],
        )
        .await?;
        if read_profile(tx, jurisdiction, &document).await?.is_none() {
            return Err(StoreError::NotFound(format!(
                "{document} não está cadastrado em {jurisdiction}"
            )));
        }
        let cnh = p.cnh.as_ref();
        sqlx::query(
            "UPDATE people SET birth_date = $3, resident_since = $4, education = $5, disabled = $6, \
             public_employee = $7, transport_operator = $8, final_conviction = $9, documents = $10, \
             cnh_number = $11, cnh_categories = $12, cnh_paid_activity = $13, cnh_first_issued = $14, \
             cnh_expires = $15, cnh_suspended_until = $16, street = $17, district = $18, city = $19, \
             postal_code = $20, phone = $21, email = $22 WHERE jurisdiction = $1 AND document = $2",
        )
        .bind(jurisdiction)
        .bind(&document)
        .bind(text_date(p.birth_date))
        .bind(text_date(p.resident_since))
        .bind(p.education.clone())
        .bind(p.disabled.map(i64::from))
        .bind(p.public_employee.map(i64::from))
        .bind(p.transport_operator.map(i64::from))
        .bind(p.final_conviction.map(i64::from))
        .bind(p.documents.as_ref().map(|d| serde_json::json!(d).to_string()))
        .bind(cnh.map(|c| c.number.clone()))
        .bind(cnh.map(|c| serde_json::json!(c.categories).to_string()))
        .bind(cnh.map(|c| i64::from(c.paid_activity)))
        .bind(text_date(cnh.and_then(|c| c.first_issued)))
        .bind(text_date(cnh.map(|c| c.expires)))
        .bind(text_date(cnh.and_then(|c| c.suspended_until)))
        .bind(p.street.trim())
        .bind(p.district.trim())
        .bind(p.city.trim())
        .bind(p.postal_code.trim())
        .bind(p.phone.trim())
        .bind(p.email.trim())
        .execute(&mut **tx)
        .await?;
        append(
            tx,
            &self.audit,
            change,
            Entry {
                action: "person.update",
                jurisdiction: Some(jurisdiction),
                subject: &format!("person:{document}"),
                detail: serde_json::to_value(&p).unwrap_or_default(),
                rows: vec![RowRef::new(
                    "people",
                    [jurisdiction.into(), (&document).into()],
                )],
            },
        )
        .await?;
        Ok(p)
    }

    /// What is recorded about a registered person, if registered.
    pub async fn profile(
        &self,
        jurisdiction: &str,
        document: &str,
    ) -> Result<Option<Profile>, StoreError> {
        let (document, _) = crate::parse_document(document)?;
        let mut tx = self.pool.begin().await?;
        let found = read_profile(&mut tx, jurisdiction, &document).await?;
        tx.commit().await?;
        Ok(found.map(|(_, p)| p))
    }
}
