//! The `outorga` command as its users run it (a process per case) and the web
//! application in a real browser: one test binary with a module per subject.

mod audit;
mod browser;
mod cli;
mod redteam;
mod reminders;
mod restore;
mod users;
