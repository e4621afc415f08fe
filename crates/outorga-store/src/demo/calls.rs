//! The demo's public call where the law ranks by criteria and releases a
//! reserved share's unfilled places (Santa Maria de Jetibá art. 2º,
//! §§ 4º–6º; 6º; 8º), loaded through the workflows from the edital to the
//! grants: 25 applicants — three with a disability, two of whom prove the
//! conditions of § 5º, and two ineligible —, a tie on the last open place
//! broken by a public draw, an appeal granted, the final result releasing
//! the share's places no eligible claimant took, and every place granted in
//! its turn.

use super::{demo_cpf, fit};
use crate::audit::Change;
use crate::{ApplicationInput, CallCriterion, CallDocument, CallInput, Shown, Store, StoreError};
use chrono::{Days, NaiveDate};
use outorga_core::model::{Judgement, Rulebook};
use rust_decimal::Decimal;

/// The seed of the tie draw: the five prizes of a federal lottery draw.
pub const SEED: &str = "20931 55870 04126 71349 86502";

const APPLICANTS: [&str; 25] = [
    "Adriano Plaster",
    "Bianca Berger Pagung",
    "Cláudio Schaeffer",
    "Daiane Kiefer",
    "Edson Boldt",
    "Fabiana Holz Stuhr",
    "Gilmar Krüger",
    "Helena Dettmann",
    "Ivan Raasch",
    "Joana Vervloet",
    "Kleber Gums",
    "Luciana Bremenkamp",
    "Marcos Lauvers",
    "Nádia Tonn",
    "Osmar Jastrow",
    "Patrícia Ramlow Seibel",
    "Rogério Siller",
    "Sandra Potratz",
    "Tiago Pagung",
    "Valdirene Buss",
    "Wesley Hartwig",
    "Zilda Koehler",
    "Alcimar Schulz",
    "Beatriz Manske",
    "Cristiano Grunewald",
];

fn at<'a>(change: &Change<'a>, day: NaiveDate) -> Change<'a> {
    Change {
        at: day.and_hms_opt(15, 0, 0).unwrap_or(change.at),
        ..*change
    }
}

fn before(today: NaiveDate, days: u64) -> NaiveDate {
    today.checked_sub_days(Days::new(days)).unwrap_or(today)
}

/// The edital: years of driving and as an auxiliary driver, the
/// certificates asked, the auxiliary years breaking a tie before the draw.
fn edital(today: NaiveDate, offered: u32) -> CallInput {
    CallInput {
        service: "taxi".into(),
        act: "Edital de Chamamento Público nº 1 (Decreto Municipal nº 210)".into(),
        offered,
        opens_on: before(today, 60),
        closes_on: before(today, 49),
        criteria: vec![
            CallCriterion {
                key: "anos_habilitacao".into(),
                description: "Anos de habilitação na categoria".into(),
                points_per_unit: Decimal::ONE,
                max: Some(Decimal::from(20)),
                citation: "Edital, item 7.1, a".into(),
            },
            CallCriterion {
                key: "anos_auxiliar".into(),
                description: "Anos como motorista auxiliar de táxi no município".into(),
                points_per_unit: Decimal::from(2),
                max: Some(Decimal::from(10)),
                citation: "Edital, item 7.1, b".into(),
            },
        ],
        tie_breaks: vec!["anos_auxiliar".into()],
        documents: vec![
            CallDocument {
                name: "certidao_negativa_criminal".into(),
                citation: "Edital, item 5.1, c".into(),
            },
            CallDocument {
                name: "comprovante_residencia".into(),
                citation: "Edital, item 5.1, d".into(),
            },
        ],
    }
}

/// What the `i`-th applicant shows: years of driving and as auxiliary,
/// the documents, the share's conditions proved.
fn shown(i: usize, share: &str) -> Shown {
    // 20 drivers; a tie of three on 14 points (the 7th to the 9th).
    const DRIVING: [i64; 25] = [
        20, 19, 18, 17, 16, 15, 14, 14, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 15, 20, 20,
    ];
    let auxiliary = match i {
        22 => 3,
        23 => 5,
        24 => 2,
        _ => 0,
    };
    let documents = if i == 23 {
        vec!["comprovante_residencia".to_string()]
    } else {
        vec![
            "certidao_negativa_criminal".to_string(),
            "comprovante_residencia".to_string(),
        ]
    };
    let (claim, proved) = match i {
        20 | 21 => (
            Some(share.to_string()),
            vec!["disability", "own_vehicle", "adapted_vehicle"],
        ),
        22 => (Some(share.to_string()), vec!["disability", "own_vehicle"]),
        _ => (None, Vec::new()),
    };
    Shown {
        quantities: vec![
            ("anos_habilitacao".into(), Decimal::from(DRIVING[i])),
            ("anos_auxiliar".into(), Decimal::from(auxiliary)),
        ],
        documents,
        claim,
        proved: proved.into_iter().map(str::to_string).collect(),
    }
}

impl Store {
    /// Runs a public call of `rulebook`'s law from the edital to the
    /// grants, where the law ranks by criteria and releases a reserved
    /// share's unfilled places; what the law refuses is noted in `refused`.
    pub(crate) async fn demo_call(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        (jurisdiction, today): (&str, NaiveDate),
        refused: &mut Vec<String>,
    ) -> Result<(), StoreError> {
        let Some(Judgement::Criteria(ranking)) =
            rulebook.public_call.as_ref().map(|c| &c.judgement)
        else {
            return Ok(());
        };
        let Some(share) = ranking.shares.iter().find(|s| {
            rulebook
                .caps
                .iter()
                .flat_map(|c| &c.reserved)
                .any(|q| q.key == s.share && q.release.is_some())
        }) else {
            return Ok(());
        };
        if let Err(e) = self
            .demo_call_steps(change, rulebook, (jurisdiction, today), &share.share)
            .await
        {
            refused.push(format!("{}: chamamento público: {e}", rulebook.id));
        }
        Ok(())
    }

    async fn demo_call_steps(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        (jurisdiction, today): (&str, NaiveDate),
        share: &str,
    ) -> Result<(), StoreError> {
        let opened = before(today, 60);
        let mut people = Vec::with_capacity(APPLICANTS.len());
        for (i, name) in APPLICANTS.iter().enumerate() {
            let seed = 9_000 + u32::try_from(i).unwrap_or(0);
            let cpf = demo_cpf(seed);
            self.register(&at(change, opened), jurisdiction, &cpf, name)
                .await?;
            let mut profile = fit(today, seed);
            profile.disabled = Some((20..=22).contains(&i));
            if let Some(cnh) = profile.cnh.as_mut() {
                // The last one's CNH does not allow paid work (SMJ art. 11, I, b).
                cnh.paid_activity = i != 24;
            }
            self.update_profile(&at(change, opened), jurisdiction, &cpf, &profile)
                .await?;
            people.push(cpf);
        }
        let call = self
            .open_call(
                &at(change, opened),
                rulebook,
                jurisdiction,
                &edital(today, 10),
            )
            .await?;
        let key = (call.year, call.number);
        for (i, who) in people.iter().enumerate() {
            let input = ApplicationInput {
                who: who.clone(),
                shown: shown(i, share),
            };
            self.apply_to_call(
                &at(change, before(today, 55)),
                rulebook,
                jurisdiction,
                key,
                &input,
            )
            .await?;
        }
        let screened = before(today, 48);
        self.screen_call(&at(change, screened), rulebook, jurisdiction, key)
            .await?;
        let call = self
            .open_call_tie_draw(
                &at(change, screened),
                rulebook,
                jurisdiction,
                key,
                (
                    "Loteria Federal, os cinco prêmios da extração do dia",
                    before(today, 46),
                ),
            )
            .await?;
        if let Some(draw) = call.draws.first() {
            self.run_draw(
                &at(change, before(today, 46)),
                rulebook,
                jurisdiction,
                (draw.year, draw.number),
                SEED,
            )
            .await?;
        }
        self.publish_provisional_result(
            &at(change, before(today, 45)),
            rulebook,
            jurisdiction,
            key,
        )
        .await?;
        // The one without the criminal certificate presents it in appeal.
        let call = self
            .appeal_call(
                &at(change, before(today, 44)),
                rulebook,
                jurisdiction,
                key,
                (
                    &people[23],
                    "A certidão negativa criminal foi emitida antes do fim das inscrições e \
                     não foi juntada por erro do protocolo; segue anexa.",
                ),
            )
            .await?;
        if let Some(appeal) = call.appeals.first() {
            let mut corrected = shown(23, share);
            corrected.documents = vec![
                "certidao_negativa_criminal".into(),
                "comprovante_residencia".into(),
            ];
            self.decide_call_appeal(
                &at(change, before(today, 43)),
                rulebook,
                jurisdiction,
                (key, appeal.seq),
                (
                    true,
                    "Provido: a certidão é anterior ao fim das inscrições e o protocolo \
                     confirma o erro na juntada.",
                    Some(&corrected),
                ),
            )
            .await?;
        }
        let call = self
            .publish_final_result(&at(change, before(today, 35)), rulebook, jurisdiction, key)
            .await?;
        let turns: Vec<i64> = call.grants().iter().map(|a| a.seq).collect();
        for seq in turns {
            self.grant_from_call(
                &at(change, before(today, 30)),
                rulebook,
                jurisdiction,
                (key, seq),
            )
            .await?;
        }
        Ok(())
    }
}
