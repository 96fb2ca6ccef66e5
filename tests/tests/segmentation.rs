//! Properties of segmentation and tail selection over random agent sessions.

use std::collections::HashMap;

use compactor::segment::{UnitKind, segment};
use compactor::select::{TailPolicy, select_tail};
use compactor_tests::arb;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn units_and_segments_cover_every_message_once_in_order(messages in arb::conversation(30)) {
        let s = segment(&messages).expect("generated sessions pair up");
        let mut next = 0;
        for unit in &s.units {
            prop_assert_eq!(unit.messages.start, next);
            prop_assert!(unit.messages.end > unit.messages.start);
            next = unit.messages.end;
        }
        prop_assert_eq!(next, messages.len());
        let mut next = 0;
        let mut next_unit = 0;
        for segment in &s.segments {
            prop_assert_eq!(segment.messages.start, next);
            prop_assert_eq!(segment.units.start, next_unit);
            next = segment.messages.end;
            next_unit = segment.units.end;
        }
        prop_assert_eq!(next, messages.len());
        prop_assert_eq!(next_unit, s.units.len());
    }

    #[test]
    fn no_unit_separates_a_call_from_its_result(messages in arb::conversation(30)) {
        let s = segment(&messages).expect("generated sessions pair up");
        let unit_of: HashMap<usize, usize> = s.units.iter().enumerate()
            .flat_map(|(u, unit)| unit.messages.clone().map(move |m| (m, u)))
            .collect();
        let mut call_unit = HashMap::new();
        for (i, message) in messages.iter().enumerate() {
            for call in message.tool_calls() {
                call_unit.insert(call.id.clone(), unit_of[&i]);
            }
            for result in message.tool_results() {
                prop_assert_eq!(call_unit.get(&result.call_id), Some(&unit_of[&i]));
            }
        }
        // Only the last unit can be waiting for results.
        for unit in s.units.iter().rev().skip(1) {
            prop_assert_ne!(unit.kind, UnitKind::PendingCalls);
        }
    }

    #[test]
    fn the_tail_starts_on_a_unit_boundary_and_respects_its_limits(
        messages in arb::conversation(30),
        turns in 0usize..6,
        cap in proptest::option::of(0u64..400),
    ) {
        let s = segment(&messages).expect("generated sessions pair up");
        let tokens: Vec<u64> = messages.iter().map(|m| 1 + m.text().len() as u64 / 4).collect();
        let policy = TailPolicy { keep_recent_turns: turns, min_turns: 1, max_tail_tokens: cap };
        let tail = select_tail(&s, &tokens, &policy);
        prop_assert!(tail.start == messages.len() || s.is_unit_start(tail.start));
        prop_assert!(tail.turns <= turns);
        prop_assert_eq!(tail.tokens, tokens[tail.start..].iter().sum::<u64>());
        if let Some(cap) = cap {
            // Over the cap only when the single newest turn (plus what follows it) is.
            prop_assert!(tail.tokens <= cap || tail.turns <= 1);
        }
        if turns > 0 && s.turns() > 0 && !tail.capped {
            prop_assert_eq!(tail.turns, turns.min(s.turns()));
        }
    }
}
