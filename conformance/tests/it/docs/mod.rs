//! The project's Markdown.

mod facts;
mod links;
