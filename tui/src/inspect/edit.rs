//! The numbers editor's keys: fields edited in place, and the run re-done with the
//! numbers typed ([`Numbers`] is what they edit).

use crossterm::event::{KeyCode, KeyEvent};

use super::model::{App, Overlay, Phase};
use super::numbers::Numbers;

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
