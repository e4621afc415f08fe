//! The API, through the router on both backends: one test binary (one link of
//! the whole stack) with a module per subject.

#[macro_use]
mod common;

mod auth;
mod bus;
mod calls;
mod complaints;
mod edge;
mod limits;
mod lists;
mod money;
mod openapi;
mod papers;
mod portuguese;
mod redteam;
mod registers;
mod roles;
mod scope;
mod sign_in;
mod stands;
mod url_params;
mod versions;
mod why_replay;
mod workflows;
