//! The engine: each module answers one kind of question from a rulebook, the
//! facts of a case and a date. Nothing here reads the clock or does IO.

pub mod acts;
pub mod assessment;
pub mod bus;
pub mod bus_compliance;
pub mod cap;
pub mod carrier_registration;
pub mod changes;
pub mod charter;
pub mod custody;
pub mod deadline;
pub mod downtime;
pub mod draw;
pub mod eligibility;
pub mod fare;
pub mod fee;
pub mod fine_due;
pub mod grounds;
pub mod in_service;
pub mod interdependence;
pub mod penalty;
pub mod permit_life;
pub mod points;
pub mod process;
pub mod public_call;
pub mod registration;
pub mod sanctions;
pub mod standing;
pub mod stands;
pub mod suspension;
pub mod transition;
pub mod trip_claim;
pub mod vehicle;
