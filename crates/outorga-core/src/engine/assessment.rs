//! The answer to "are these requirements met?": what is unmet, what could not be
//! judged on the facts given, and the articles checked. Shared by eligibility
//! and vehicle admissibility.

/// The answer of one check on the facts given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Met,
    Unmet,
    /// A fact it depends on was not given: a clerk must check it.
    Unknown,
}

impl Outcome {
    pub fn from_known(known: Option<bool>) -> Outcome {
        match known {
            Some(true) => Outcome::Met,
            Some(false) => Outcome::Unmet,
            None => Outcome::Unknown,
        }
    }
}

/// A requirement that was not met, or could not be judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding<'r> {
    pub requirement: &'r str,
    pub description: &'r str,
    pub citations: Vec<&'r str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessment<'r> {
    /// False if any requirement is unmet; unknown ones are listed, not assumed.
    pub passed: bool,
    /// The requirements met, in the rulebook's order (a checklist shows them).
    pub met: Vec<Finding<'r>>,
    pub unmet: Vec<Finding<'r>>,
    pub unknown: Vec<Finding<'r>>,
    /// Every article checked, each once.
    pub citations: Vec<&'r str>,
}

impl Default for Assessment<'_> {
    fn default() -> Self {
        Self {
            passed: true,
            met: Vec::new(),
            unmet: Vec::new(),
            unknown: Vec::new(),
            citations: Vec::new(),
        }
    }
}

impl<'r> Assessment<'r> {
    pub fn record(
        &mut self,
        requirement: &'r str,
        description: &'r str,
        citations: Vec<&'r str>,
        outcome: Outcome,
    ) {
        for citation in &citations {
            if !self.citations.contains(citation) {
                self.citations.push(citation);
            }
        }
        let finding = Finding {
            requirement,
            description,
            citations,
        };
        match outcome {
            Outcome::Met => self.met.push(finding),
            Outcome::Unmet => {
                self.passed = false;
                self.unmet.push(finding);
            }
            Outcome::Unknown => self.unknown.push(finding),
        }
    }
}
