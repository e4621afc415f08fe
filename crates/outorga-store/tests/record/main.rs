//! The record on both backends: one test binary with a module per subject.

#[macro_use]
mod common;

mod bus_operation;
mod bus_passengers;
mod calls;
mod carrier_registrations;
mod citizens;
mod decided_points;
mod files;
mod fleet_cap;
mod import;
mod import_autos;
mod money;
mod out_of_service;
mod panel_stats;
mod permit_life;
mod procedure;
mod redteam;
mod reminders;
mod session_activity;
mod stands;
mod store;
mod tamper;
mod workflows;
