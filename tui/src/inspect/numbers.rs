//! The numbers editor's model: the window, reserve, ratios, tail and focus the run can be
//! re-done with, edited in place as text.

use compactor::budget::Budget;
use compactor::engine::CompactionConfig;
use crossterm::event::{KeyCode, KeyEvent};

use super::model::{App, Overlay, Phase};

/// The numbers that can be edited in place and the run re-done with.
#[derive(Debug, Clone, PartialEq)]
pub struct Numbers {
    /// The model's window.
    pub max_context: u64,
    /// Tokens kept free for the answer.
    pub output_reserve: u64,
    /// Compaction starts above this share of the limit.
    pub trigger: f64,
    /// A run stops at or below this share.
    pub target: f64,
    /// Recent turns kept raw.
    pub keep_recent_turns: usize,
    /// What every summary should focus on (the config's `instructions`); empty for none.
    pub focus: String,
}

impl Numbers {
    /// Field labels, in edit order.
    pub const LABELS: [&'static str; 6] = [
        "window",
        "output reserve",
        "trigger",
        "target",
        "keep recent turns",
        "focus",
    ];

    /// The field that takes any text (the others take numbers).
    pub const FOCUS: usize = 5;

    /// The numbers in force for `config`.
    pub fn of(config: &CompactionConfig, budget: &Budget) -> Self {
        Self {
            max_context: budget.max_context_tokens,
            output_reserve: budget.output_reserve,
            trigger: budget.trigger_ratio,
            target: budget.target_ratio,
            keep_recent_turns: config.keep_recent_turns,
            focus: config.instructions.clone().unwrap_or_default(),
        }
    }

    /// Field `i` as text.
    pub fn field(&self, i: usize) -> String {
        match i {
            0 => self.max_context.to_string(),
            1 => self.output_reserve.to_string(),
            2 => format!("{}", self.trigger),
            3 => format!("{}", self.target),
            4 => self.keep_recent_turns.to_string(),
            _ => self.focus.clone(),
        }
    }

    /// Sets field `i` from text.
    pub fn set_field(&mut self, i: usize, text: &str) -> Result<(), String> {
        let label = Numbers::LABELS.get(i).copied().unwrap_or("field");
        let bad = |_| format!("{label}: {text:?} is not a number");
        let bad_ratio = |_| format!("{label}: {text:?} is not a number");
        match i {
            0 => self.max_context = text.trim().parse().map_err(bad)?,
            1 => self.output_reserve = text.trim().parse().map_err(bad)?,
            2 => self.trigger = text.trim().parse().map_err(bad_ratio)?,
            3 => self.target = text.trim().parse().map_err(bad_ratio)?,
            4 => self.keep_recent_turns = text.trim().parse().map_err(bad)?,
            _ => self.focus = text.trim().to_owned(),
        }
        Ok(())
    }

    /// `config` with these numbers.
    pub fn apply(&self, config: &CompactionConfig) -> CompactionConfig {
        let mut config = config.clone();
        config.budget.max_context_tokens = Some(self.max_context);
        config.budget.output_reserve = Some(self.output_reserve);
        config.budget.trigger_ratio = Some(self.trigger);
        config.budget.target_ratio = Some(self.target);
        config.keep_recent_turns = self.keep_recent_turns;
        config.instructions = (!self.focus.is_empty()).then(|| self.focus.clone());
        config
    }
}

impl App {
    /// A key in the numbers editor.
    pub(super) fn edit_key(&mut self, key: KeyEvent) {
        if let Some(Overlay::Edit { fields, field }) = &mut self.overlay {
            match key.code {
                KeyCode::Esc => {
                    self.overlay = None;
                    self.status = "numbers unchanged".into();
                }
                KeyCode::Up | KeyCode::BackTab => {
                    *field = (*field + fields.len() - 1) % fields.len();
                }
                KeyCode::Down | KeyCode::Tab => *field = (*field + 1) % fields.len(),
                KeyCode::Backspace => {
                    if let Some(text) = fields.get_mut(*field) {
                        text.pop();
                    }
                }
                KeyCode::Char(c) if c.is_ascii_digit() || c == '.' || *field == Numbers::FOCUS => {
                    if let Some(text) = fields.get_mut(*field) {
                        text.push(c);
                    }
                }
                KeyCode::Enter => {
                    let fields = fields.clone();
                    self.apply_numbers(&fields);
                }
                _ => {}
            }
        }
    }

    /// Re-does the setup with the numbers typed in `fields`; a bad one is said in the
    /// status line and nothing changes.
    fn apply_numbers(&mut self, fields: &[String]) {
        let mut numbers = self.numbers.clone();
        for (i, text) in fields.iter().enumerate() {
            if let Err(e) = numbers.set_field(i, text) {
                self.status = e;
                return;
            }
        }
        let config = numbers.apply(&self.config);
        let compactor = match compactor::engine::Compactor::new(config.clone()) {
            Ok(c) => c,
            Err(e) => {
                self.status = format!("numbers refused: {e}");
                return;
            }
        };
        self.numbers = Numbers::of(&config, compactor.budget());
        self.compactor = compactor;
        self.live = None; // the shown session belongs to the old compactor
        self.replay = None; // replayed under the old numbers
        self.config = config;
        self.reset_run_state();
        self.phase = Phase::Ready;
        self.overlay = None;
        self.refresh();
        self.status = "numbers changed: Space steps, r runs; u undoes".into();
    }
}
