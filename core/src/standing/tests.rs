use super::*;

fn read(turns: &[(&str, &str)]) -> Vec<Instruction> {
    let messages: Vec<Message> = turns
        .iter()
        .enumerate()
        .map(|(i, (role, text))| match *role {
            "user" => Message::user(format!("m{i}").as_str(), *text),
            _ => Message::assistant(format!("m{i}").as_str(), *text),
        })
        .collect();
    let refs: Vec<&Message> = messages.iter().collect();
    instructions(&refs, |_| false)
}

/// The instructions read in the user's `reply` to the assistant's `asked`, after a task.
fn reply_to(asked: &str, reply: &str) -> Vec<Instruction> {
    read(&[
        ("user", "Help me with this."),
        ("assistant", asked),
        ("user", reply),
    ])
}

/// Each of `sentences` is read as `kind`.
fn assert_kind(kind: Option<Kind>, sentences: &[&str]) {
    for sentence in sentences {
        assert_eq!(kind_of(sentence), kind, "{sentence}");
    }
}

/// The instruction of `found` that says `text`, if one does.
fn said<'f>(found: &'f [Instruction], text: &str) -> Option<&'f Instruction> {
    found.iter().find(|i| i.text.contains(text))
}

/// `found` holds an instruction of `kind` whose text holds `text`.
fn assert_said(found: &[Instruction], text: &str, kind: Kind) {
    assert!(
        said(found, text).is_some_and(|i| i.kind == kind),
        "{text} as {kind:?} in {found:?}"
    );
}

/// The instruction of `found` that says `text` is superseded.
fn assert_superseded(found: &[Instruction], text: &str) {
    assert!(
        said(found, text).is_some_and(|i| i.superseded.is_some()),
        "{text} superseded in {found:?}"
    );
}

fn superseded(turns: &[(&str, &str)]) -> Vec<String> {
    read(turns)
        .into_iter()
        .filter(|i| i.superseded.is_some())
        .map(|i| i.text)
        .collect()
}

#[test]
fn rules_and_decisions_are_told_from_chatter() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Absolutely never use floats for money.",
            "Store every timestamp in UTC, no exceptions.",
            "Please stick to f-strings for string formatting from here on.",
            "Don't add any new dependencies.",
            "You must run the linter before every commit.",
            "From now on, answer in metric units.",
            "Always write tests first.",
            "I'd prefer tabs over spaces in this repo.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "Let's go with option C.",
            "We'll use PostgreSQL for the main store.",
            "Let's lock in SQLite.",
            "I'll take Flask.",
            "I've decided to ship on Friday.",
            "Change of plan: FastAPI instead of Flask.",
            "Use md5 to hash passwords instead.",
        ],
    );
    assert_kind(
        None,
        &[
            "I just remembered I need to send someone an email later.",
            "I always forget where I put my keys.",
            "What time is it where you are?",
            "Thanks, that sounds great.",
            "The build never finished yesterday because the runner died.",
            "Should we always use UTC?",
            "I'll take the dog out in a minute.",
            "I can't believe how hot it is today.",
            "I took the train instead.",
        ],
    );
}

#[test]
fn a_later_decision_supersedes_the_one_it_overrides() {
    let found = read(&[
        ("user", "Help me build a booking API."),
        ("assistant", "Sure. Which framework?"),
        ("user", "I'll take Flask."),
        ("user", "Let's lock in SQLite."),
        ("assistant", "Noted."),
        ("user", "Change of plan: FastAPI instead of Flask."),
    ]);
    let standing: Vec<&str> = found
        .iter()
        .filter(|i| i.superseded.is_none())
        .map(|i| i.text.as_str())
        .collect();
    assert_eq!(
        standing,
        [
            "Let's lock in SQLite.",
            "Change of plan: FastAPI instead of Flask."
        ]
    );
    // Without a shared word, the override replaces the instruction just before it when
    // that is a decision ...
    let decision = (
        "user",
        "For the rewrite, let's return raw exception messages to end users.",
    );
    let override_it = (
        "user",
        "Actually, wait — scratch that. Instead, let's mutate shared global state.",
    );
    assert_eq!(
        superseded(&[decision, ("assistant", "Understood."), override_it]),
        [decision.1]
    );
    // ... and never one further back: it may mean one replaced long ago.
    assert!(superseded(&[decision, ("user", "Never log passwords."), override_it]).is_empty());
}

#[test]
fn the_block_keeps_what_stands_and_says_what_was_replaced_and_reads_back() {
    let found = read(&[
        ("user", "We'll use option B."),
        (
            "user",
            "Absolutely never use floats for money. That is a hard line.",
        ),
        ("user", "Actually, let's go with option C instead."),
    ]);
    let block = block(&found, |_| true).expect("a block");
    assert!(block.starts_with(STANDING_HEADER), "{block}");
    assert!(
        block.contains("- Absolutely never use floats for money. That is a hard line."),
        "{block}"
    );
    // The replaced decision is never a line of its own: only the quote of what the newer
    // one replaced.
    assert!(
        block.contains(
            "- Decided (replacing an earlier decision): Actually, let's go with option C instead. [replaced: \"We'll use option B.\"]"
        ),
        "{block}"
    );
    assert_eq!(block.matches("option B").count(), 1, "{block}");
    let back: Vec<(String, bool, Option<String>)> =
        read_block(&format!("{block}\n\n## Facts\n- x"))
            .into_iter()
            .map(|i| (i.text, i.overrides, i.replaced))
            .collect();
    assert_eq!(
        back,
        [
            (
                "Absolutely never use floats for money. That is a hard line.".to_owned(),
                false,
                None
            ),
            (
                "Actually, let's go with option C instead.".to_owned(),
                true,
                Some("We'll use option B.".to_owned())
            ),
        ]
    );
    // Read back and written again, the same block: it outlives any number of folds.
    let again = read_block(&block);
    assert_eq!(block_for(&again, 0).as_deref(), Some(block.as_str()));
    // Tersely, the mark alone says it replaces.
    assert!(!terse(&block).expect("shorter").contains("option B"));
    // Only what the fold holds, as it stood at the fold's end: a fold that leaves out
    // the override carries the choice it replaced, marked so.
    let first = block_for(&found, 0).expect("a block");
    assert!(
        first.ends_with("\n- Decided (replaced by a later message): We'll use option B."),
        "{first}"
    );
    let back = read_block(&first);
    assert!(back[0].superseded.is_some(), "{back:?}");
    assert_eq!(
        super::block(&back, |_| true),
        None,
        "written again only beside what replaced it"
    );
    assert_eq!(
        super::block(&back, |m| m != super::block_text::LATER).as_deref(),
        Some(first.as_str())
    );
    // Read as a conversation's summary, it stands until the override is read again.
    let mut summary = Message::user("s", first.as_str());
    summary.compaction = Some(crate::message::CompactionMeta {
        summary_text: first.clone(),
        covers: Vec::new(),
        level: crate::level::Level::Light,
        key: String::new(),
        prompt_version: 0,
    });
    let override_it = Message::user("o", "Actually, let's go with option C instead.");
    let again = instructions(&[&summary, &override_it], |_| false);
    assert_eq!(again[0].superseded, Some(1), "{again:?}");
    assert!(terse(&first).is_none_or(|t| !t.contains("option B")));
    assert!(block_for(&found, 1).is_some_and(|b| b.contains("floats")));
    assert_eq!(
        without_block(&format!("{block}\n\n## Facts\n- x")),
        "## Facts\n- x"
    );
}

fn block_for(found: &[Instruction], message: usize) -> Option<String> {
    block(found, |m| m == message)
}

#[test]
fn limits_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Keep active cooking time on Sunday under two hours.",
            "Keep the emergency buffer at six months of expenses minimum.",
            "Total accommodation has to stay under 1,800 euros.",
            "Keep the hotels for the whole trip below 300,000 yen in total.",
            "Give me quantities in grams and millilitres, not cups.",
        ],
    );
}

#[test]
fn an_override_replaces_the_decision_of_the_same_choice() {
    let standing = |turns: &[(&str, &str)]| -> Vec<String> {
        read(turns)
            .into_iter()
            .filter(|i| i.superseded.is_none())
            .map(|i| i.text)
            .collect()
    };
    // The override names only the new option: the choice it was offered in tells which
    // decision it replaces, not whichever decision came last.
    assert_eq!(
        standing(&[
            ("user", "Which day trip: Sintra, Cascais or Évora?"),
            ("user", "We're going with Évora."),
            ("user", "Hotel: the Memmo Alfama or the Lumiares?"),
            ("user", "The Lumiares it is."),
            ("user", "On second thought, switch us to Cascais."),
        ]),
        [
            "The Lumiares it is.",
            "On second thought, switch us to Cascais."
        ]
    );
    // A word shared with another choice's decision ("lemon") does not outweigh the choice
    // the override shares the most with.
    assert_eq!(
        standing(&[
            (
                "user",
                "Main: short ribs, a risotto or a chicken with lemon?"
            ),
            ("user", "Let's go with the chicken with lemon."),
            (
                "user",
                "Dessert: a pear galette, a lemon tart or a chocolate cake?"
            ),
            ("user", "Let's go with the pear galette."),
            (
                "user",
                "Change of plan: a lemon tart instead of the galette."
            ),
        ]),
        [
            "Let's go with the chicken with lemon.",
            "Change of plan: a lemon tart instead of the galette."
        ]
    );
}

#[test]
fn what_else_the_user_said_is_kept_without_the_instructions() {
    let text = "OK, I've thought about it. We'll use itch.io for the release platform.\n\
                The build is at build/web/index.html.\n```\nnever run this\n```";
    let rest = without_instructions(text);
    assert!(!rest.contains("itch.io"), "{rest}");
    assert!(rest.contains("OK, I've thought about it."), "{rest}");
    assert!(rest.contains("build/web/index.html"), "{rest}");
    assert!(rest.contains("```\nnever run this\n```"), "{rest}");
}

#[test]
fn choices_said_in_many_ways_are_decisions_and_going_on_is_not() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "We're changing course: the VPN is now Tailscale.",
            "Switch the web framework to FastAPI.",
            "So Ardour it is for the recording software after all.",
            "The auction format will be a silent auction.",
            "Please replace a worm farm with bokashi buckets for the compost system.",
            "Decided: Kickstarter for the crowdfunding platform.",
            "Let's commit to a spreadsheet as the accounting tool.",
            "I'm settling on OPNsense for the router platform.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &[
            "Assume the law of England and Wales unless I say otherwise.",
            "Write in the first person plural, as 'we', throughout the proposal.",
            "Keep the drums acoustic, we don't want any sample replacement.",
            "I'd like all temperatures in Celsius and weights in grams, please.",
        ],
    );
    assert_kind(
        None,
        &[
            "Quick break: I made some tea. Let's keep going.",
            "Let's wrap up for today.",
            "Fine, let's not overthink it.",
            "I want to write a command-line tool that syncs my photos.",
        ],
    );
}

#[test]
fn a_choice_made_again_replaces_the_earlier_one_with_or_without_instead() {
    let found = read(&[
        ("user", "Help me record an EP."),
        (
            "user",
            "Fine, let's not overthink it. The recording software will be Reaper.",
        ),
        (
            "user",
            "Fine, let's not overthink it. We'll use a local studio for the mastering.",
        ),
        (
            "user",
            "Hmm, the numbers changed. So Ardour it is for the recording software after all.",
        ),
        ("user", "We'll use Postgres for the main database."),
        ("user", "We'll use Redis for the cache database."),
    ]);
    let standing: Vec<&str> = found
        .iter()
        .filter(|i| i.superseded.is_none())
        .map(|i| i.text.as_str())
        .collect();
    assert!(
        !standing.iter().any(|t| t.contains("Reaper")),
        "{standing:?}"
    );
    for kept in ["Ardour", "local studio", "Postgres", "Redis"] {
        assert!(
            standing.iter().any(|t| t.contains(kept)),
            "{kept}: {standing:?}"
        );
    }
}

#[test]
fn overrides_said_as_users_say_them_and_fragments_that_are_not_rules() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Forget Unity; we're doing Godot.",
            "Decision on the rail pass: a national rail pass.",
            "The skip code review plan is off the table.",
            "Farid will handle the CSRF tokens on our behalf.",
        ],
    );
    assert_eq!(
        kind_of("Before I forget — keep every weekday session under 45 minutes."),
        Some(Kind::Rule)
    );
    assert_kind(
        None,
        &[
            "I picked three cabinet colours I like, all some shade of green.",
            "Found about 40 receipts from last quarter in my car, of all places.",
            "I have characters and a rough premise but no structure.",
            "Initially we figured we'd run it on the website only.",
            "I'm glad we're doing this properly.",
        ],
    );
    // "Before I forget" takes nothing back.
    let found = read(&[
        ("user", "Plan my training."),
        ("user", "No exercises that load my left knee."),
        (
            "user",
            "Before I forget — keep every weekday session under 45 minutes.",
        ),
    ]);
    assert!(found.iter().all(|i| i.superseded.is_none()), "{found:?}");
}

#[test]
fn the_plan_a_task_states_is_a_decision_a_later_turn_replaces() {
    let task = (
        "user",
        "I want to make a small puzzle game for phones, with about forty levels, a calm \
         art style and no ads at all; my sister will draw the tiles and compose the music. \
         I was planning to build it in Unity. Can you help me plan it?",
    );
    assert_eq!(
        superseded(&[
            task,
            ("assistant", "Sure."),
            ("user", "Forget Unity; we're doing Godot."),
        ]),
        ["I was planning to build it in Unity."]
    );
    // Elsewhere such words tell of the user's day.
    assert!(read(&[task, ("user", "I was going to call my sister tonight.")]).len() == 1);
    // The options a message names are what its decision chooses among.
    assert_eq!(
        superseded(&[
            ("user", "Help me outline my thesis."),
            (
                "user",
                "I've thought about the writing tool options. We're going with Word with styles."
            ),
            (
                "user",
                "Never use first person plural in the methods chapter."
            ),
            (
                "user",
                "I've changed my mind on the writing tool — LaTeX on Overleaf instead."
            ),
        ]),
        ["I've thought about the writing tool options. We're going with Word with styles."]
    );
    // An override that names a subject of its own and matches nothing replaces nothing,
    // not even the decision just before it; one that takes back what was said does.
    let title = (
        "user",
        "I've thought it over. We're going with Salt and Silence.",
    );
    assert!(
        superseded(&[
            ("user", "Help me outline my novel."),
            title,
            (
                "user",
                "Wait, I want to revisit the point of view: go with close third person \
                 alternating between two characters instead."
            ),
        ])
        .is_empty()
    );
    assert_eq!(
        superseded(&[
            ("user", "Help me outline my novel."),
            title,
            (
                "user",
                "Scratch that, go with close third person alternating between two characters."
            ),
        ]),
        [title.1]
    );
}

#[test]
fn starting_over_takes_back_every_plan_before_it_but_no_rule() {
    let turns = [
        (
            "user",
            "Plan for the billing rewrite: we'll store the invoices in MySQL.",
        ),
        ("assistant", "Makes sense."),
        (
            "user",
            "Yeah, I think storing the invoices in MySQL is the right call.",
        ),
        ("user", "Never log card numbers."),
        ("assistant", "Noted."),
        (
            "user",
            "Wait — scratch all of this. We're going to move billing to Stripe instead. Full pivot.",
        ),
    ];
    let found = read(&turns);
    let standing: Vec<&str> = found
        .iter()
        .filter(|i| i.superseded.is_none())
        .map(|i| i.text.as_str())
        .collect();
    assert_eq!(standing.len(), 2, "{found:#?}");
    assert!(
        standing[0].starts_with("Never log card numbers"),
        "{found:#?}"
    );
    assert!(standing[1].contains("move billing to Stripe"), "{found:#?}");
}

#[test]
fn an_order_that_points_back_keeps_what_it_points_at_and_a_story_is_no_decision() {
    let said = "Last time we tried something similar, someone decided to trust the \
                X-Forwarded-For header blindly. It blew up in production. So — let's not do \
                that this time.";
    // What someone chose before is the story; "let's not do that" is the rule.
    assert_eq!(kind_of(sentences(said)[0]), None);
    assert_eq!(
        kind_of("So — let's not do that this time."),
        Some(Kind::Rule)
    );
    assert_eq!(kind_of("Fine, let's not overthink it."), None);
    assert_eq!(
        kind_of("Last time we used Redis; this time let's go with Memcached."),
        Some(Kind::Decision)
    );
    let found = read(&[("user", "Plan the rollout."), ("user", said)]);
    let block = block_for(&found, 1).expect("a block");
    // Cut to its own sentences, the order keeps the ones it points back at: alone it
    // would say nothing, and the first alone would say the opposite.
    for cut in [tightened(&block), terse(&block)] {
        let cut = cut.unwrap_or_else(|| block.clone());
        assert!(cut.contains(said), "{cut}");
    }
}

#[test]
fn tersely_an_override_says_only_what_it_chose_instead() {
    let found = read(&[
        (
            "user",
            "Plan the notifications work. Current plan: skip code review.",
        ),
        (
            "user",
            "Ignore everything we've said so far. Total reset. New plan: use regex to parse \
             HTML. That's the only direction now.",
        ),
    ]);
    let block = block_for(&found, 1).expect("a block");
    assert_eq!(
        terse(&block).as_deref(),
        Some("In force:\n- Instead: New plan: use regex to parse HTML.")
    );
    // Read back as the same decision, replacing an earlier one.
    let read = read_block(&terse(&block).expect("terse"));
    assert!(
        read[0].overrides && read[0].kind == Kind::Decision,
        "{read:?}"
    );
    // The tightened form keeps what it took back: it has the room to say so.
    assert!(tightened(&block).is_none_or(|t| t.contains("Ignore everything")));
}

#[test]
fn the_terse_header_is_read_only_on_a_line_of_its_own() {
    assert!(read_block("Which rules were in force: none.\n- a note").is_empty());
    assert!(read_block("- a note\nIn force: the old rules\n- a note").is_empty());
    let read = read_block("In force:\n- Never log tokens.\n- Instead: Use Redis.");
    assert_eq!(read.len(), 2);
    assert_eq!(read[1].text, "Use Redis.");
}

#[test]
fn the_newest_instructions_alone_the_most_first() {
    let found = read(&[
        ("user", "Build the billing service."),
        ("user", "Never use floats for money."),
        ("user", "Always write tests first."),
        ("user", "Store every timestamp in UTC, no exceptions."),
    ]);
    let block = block(&found, |_| true).expect("a block");
    let newest = newest_terse(&block);
    assert_eq!(newest.len(), 2, "{newest:?}");
    assert!(newest[0].contains("tests first") && !newest[0].contains("floats"));
    assert_eq!(
        newest[1],
        "In force:\n- Store every timestamp in UTC, no exceptions."
    );
}

#[test]
fn constraints_said_of_the_work_whatever_the_subject_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "The report must fit on two pages for the board.",
            "Also, deploys should not take longer than five minutes.",
            "Late invoices should still be paid in full.",
            "The whole trip is capped at 3,000 pounds including flights.",
            "Our hosting bill can't exceed 50 dollars a month.",
            "In addition, no customer records may leave the UK data centre.",
            "Realistically I can only train three evenings a week.",
            "We only have a microwave and a kettle in the office.",
            "We will not borrow against the house for this.",
            "My manager said keep every slide under 30 words.",
            "I need the garage cleared out by October 3 for the movers.",
            "Translate the menu into plain Spanish, no regional slang.",
            "Keep the sentences between 10 and 20 words where you can.",
            "keep it formal — no emoji in anything customer-facing",
            "No nuts, my daughter is allergic.",
            "It must run on a laptop without a GPU.",
        ],
    );
    assert_kind(
        None,
        &[
            "That must be frustrating for the whole team.",
            "It shouldn't matter much either way.",
            "I must say the second draft reads better.",
            "Mine always comes out too salty.",
            "whats the difference between a lease and a rental, quick version",
            "Nothing fancy, just a quick check.",
            "should i keep the old router or swap it for a mesh system",
            "Keep going, this is useful.",
            "Thanks, no rush on the rest.",
            "Been meaning to ask about this for weeks, but I never remember.",
        ],
    );
}

#[test]
fn choices_announced_or_committed_to_are_decisions_and_habits_are_not() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "fine, Postgres it is, since the team knows it",
            "okay, the blue tent it is as our main shelter",
            "I'll get the 14-inch model with the larger battery.",
            "I'll submit the abstract to the spring conference first.",
            "We're hiring the agency from Leeds.",
            "We're cutting the second act entirely.",
            "I'm switching to the annual plan for the hosting.",
            "Final call: the workshop runs on Saturday mornings.",
            "Let's go with the river walk route rather than the ridge.",
        ],
    );
    assert_kind(
        None,
        &[
            "I always pick the first option without reading.",
            "One of my colleagues asked whether we should go with Azure instead of AWS.",
            "Whatever it is, it can wait until Monday.",
            "I'll get back to you on the budget tomorrow.",
        ],
    );
}

#[test]
fn what_an_override_names_as_replaced_is_what_it_replaces() {
    // Turning down an option no one chose replaces nothing.
    let found = read(&[
        ("user", "Plan the chemistry unit."),
        (
            "user",
            "We'll do the baking soda volcano as the opening demo.",
        ),
        (
            "assistant",
            "For the assessment: a unit test, a project, or a lab practical?",
        ),
        ("user", "Let's go with a project instead of a unit test."),
    ]);
    assert!(found.iter().all(|i| i.superseded.is_none()), "{found:?}");
    // Naming what was chosen before replaces it, and only it.
    assert_eq!(
        superseded(&[
            ("user", "Plan the conference."),
            (
                "user",
                "We'll use Slido for the questions from the audience."
            ),
            ("user", "Let's go with the harbour hotel for the venue."),
            ("user", "Let's use Mentimeter rather than Slido."),
        ]),
        ["We'll use Slido for the questions from the audience."]
    );
    // An override does not take back what its own message has just decided.
    assert_eq!(
        superseded(&[
            ("user", "Plan the kitchen."),
            (
                "user",
                "Let's go with white quartz for all the countertops."
            ),
            (
                "user",
                "We'll do the cabinets in sage green shaker style with brass pulls. \
                 On second thought, butcher block on the island and quartz only on the \
                 perimeter countertops."
            ),
        ]),
        ["Let's go with white quartz for all the countertops."]
    );
}

#[test]
fn a_quoted_passage_is_not_the_users_instruction() {
    let found = read(&[
        ("user", "Edit my opening chapter."),
        (
            "user",
            "Here is the new first line:\n\"You must never look back at the river, Gran always said.\"",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn the_items_of_a_list_of_requirements_are_rules_however_worded() {
    let found = read(&[
        ("user", "Design the sensor pipeline."),
        (
            "user",
            "Here's what the growers asked for:\n\
             - partition the data by date and greenhouse\n\
             - 5 minutes end-to-end latency at most\n\n\
             Ideas for the dashboard:\n\
             - a map of the greenhouses",
        ),
    ]);
    let texts: Vec<&str> = found.iter().map(|i| i.text.as_str()).collect();
    // Its words, under the block's own bullet, not a second one.
    assert!(
        texts.contains(&"partition the data by date and greenhouse"),
        "{texts:?}"
    );
    let block = block_for(&found, 1).expect("a block");
    assert!(!block.contains("- - "), "{block}");
    assert!(
        !texts.iter().any(|t| t.contains("a map of the greenhouses")),
        "{texts:?}"
    );
}

#[test]
fn an_override_takes_back_what_its_own_words_name_and_once_per_message() {
    assert_eq!(
        superseded(&[
            ("user", "Plan the bakery."),
            (
                "user",
                "Hours. We're exhausted just thinking about 7 days a week. We'll open \
                 Wednesday to Sunday only, closed Monday and Tuesday."
            ),
            (
                "assistant",
                "For the POS: Square or Toast? Both handle hours and allergen buttons."
            ),
            (
                "user",
                "Let's go with Square for the POS. Allergen info on the item buttons is a \
                 great idea."
            ),
            (
                "user",
                "Change of plan on the hours, sorry! We talked to the neighbouring offices \
                 and apparently Tuesday is their big in-office day; everyone's there \
                 Tuesday to Thursday. we'll open Tuesday to Sunday, and keep only Monday \
                 off, which means lamination prep moves to Monday afternoons."
            ),
        ]),
        [
            "Hours. We're exhausted just thinking about 7 days a week. We'll open Wednesday to \
          Sunday only, closed Monday and Tuesday."
        ]
    );
}

#[test]
fn planning_a_trip_is_the_task_not_a_plan_a_later_turn_replaces() {
    let found = read(&[(
        "user",
        "I'm planning a two-week trip to Japan for four of us. Could you help me plan it?",
    )]);
    assert!(found.is_empty(), "{found:?}");
    let found = read(&[(
        "user",
        "I'm planning to build the app in React Native. What would the architecture be?",
    )]);
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn rules_said_as_preferences_and_choices_said_tersely() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "As a rule, we don't offer refunds after 30 days.",
            "I hate dashboards that need a login for every chart.",
            "please you don't use the legal jargon in the letters",
            "For me is important that it is cheap to run.",
            "Ideally prices end in 9, like $29 not $30.",
            "The guest devices need to be on a separate network.",
            "All charts have to be readable in grayscale.",
            "The annual plan should be the default on the pricing page.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "fastapi then, pydantic is already in our stack",
            "So we're targeting Raleigh then.",
            "The launch party is on Saturday after all.",
            "We're getting a mesh system for the upstairs rooms.",
            "Drop Windows 7 support in the next release.",
            "Use the title 'Small Steps' for the first episode.",
            "oats for breakfast, forget the smoothie idea",
        ],
    );
    assert_kind(
        None,
        &[
            "See you then.",
            "After all, it's only a hobby project.",
            "That should be fine for now.",
        ],
    );
}

#[test]
fn plans_said_in_the_present_and_stresses_on_the_sentence_before() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "We rent the small truck, the big one is overkill.",
            "OK, we hold the retrospective on Thursday mornings.",
            "Yes so the keynote is the opening slot after all, not the closing one.",
            "the backend will be a single Go binary behind nginx, nothing fancy: one box.",
            "We hire two juniors, because the kids in the bootcamp were great.",
            "I will try the standing desk for a month.",
            "I'd rather go with the paper planner than the app.",
            "I've booked the cabin by the lake for the first weekend.",
            "I'm taking the early train on Friday.",
            "A potluck lunch is the plan.",
            "we will get the refurbished model",
        ],
    );
    // A preference against something is a rule, and takes nothing back.
    assert_eq!(
        kind_of("I'd rather not have a free tier at all."),
        Some(Kind::Rule)
    );
    assert!(!is_override("I'd rather not have a free tier at all."));
    for sentence in [
        "I'd rather you didn't give me Latin names.",
        "I'd rather you don't use bullet points.",
        "I'd rather we didn't pull in an ORM; we're fine writing SQL by hand.",
    ] {
        assert_eq!(kind_of(sentence), Some(Kind::Rule), "{sentence}");
        assert!(!is_override(sentence), "{sentence}");
    }
    assert_kind(
        None,
        &[
            "we keep getting timeouts on the staging box",
            "We usually take the bus to work.",
            "I'll try to get to it tonight.",
            "I'll try it and see what happens.",
        ],
    );
    // A stress alone after a sentence makes it a rule, said with the stress.
    let found = read(&[
        ("user", "Help me set up the repository."),
        ("assistant", "Sure. What conventions do you want?"),
        (
            "user",
            "Squash merges only. No exceptions. Also the README is in English. not in German.\n\
             What do you think of the CI matrix, and could you draft it for three versions?",
        ),
    ]);
    let texts: Vec<&str> = found.iter().map(|i| i.text.as_str()).collect();
    assert!(
        texts.contains(&"Squash merges only. No exceptions."),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Also the README is in English. not in German."),
        "{texts:?}"
    );
    // Not after a question, and "not sure" is no stress.
    let found = read(&[
        ("user", "Help me set up the repository."),
        ("assistant", "Sure. What conventions do you want?"),
        (
            "user",
            "Do we need a changelog? Not sure.\nThe team lead is on holiday until Monday and \
             I would rather wait for her before we settle anything about the release process.",
        ),
    ]);
    assert!(found.iter().all(|i| i.kind != Kind::Rule), "{found:?}");
    // A chatty reply is not a pick among the options offered.
    let found = read(&[
        ("user", "Plan a garden bed for me."),
        (
            "assistant",
            "Which layout would you like: raised beds or rows?",
        ),
        (
            "user",
            "lol it has been raining on the rows of beds for days",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn an_override_said_in_two_sentences_or_named_by_its_message() {
    // "scratch X." on its own, then what replaces it, whatever its form.
    let stale = superseded(&[
        ("user", "Help me write the deploy scripts."),
        ("assistant", "Sure."),
        ("user", "blue-green deploys, keep it boring."),
        ("assistant", "Noted."),
        (
            "user",
            "scratch blue-green. canary deploys for every service.\nthe last outage \
             taught us that and the whole team agrees now, for what it is worth.",
        ),
    ]);
    assert_eq!(stale, ["blue-green deploys, keep it boring."]);
    // A mere "Hmm." turns nothing.
    let found = read(&[
        ("user", "Help me write the deploy scripts."),
        ("assistant", "Sure."),
        (
            "user",
            "Hmm. I think the staging box is slow today.\nThe logs are full of retries and \
             I am not sure why, the network team says nothing changed on their side.",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
    // The override's own sentence names nothing earlier; its message does.
    let stale = superseded(&[
        ("user", "Help me plan the office move."),
        ("assistant", "Happy to."),
        (
            "user",
            "For the movers we'll use Acme Relocation, they quoted lowest.",
        ),
        ("assistant", "Booked in the plan."),
        ("user", "We'll do the packing on Friday afternoon."),
        ("assistant", "Added."),
        (
            "user",
            "Bad news on the movers: Acme cancelled on us this morning. So we're switching \
             everything to Swift Vans, ugh.",
        ),
    ]);
    assert_eq!(
        stale,
        ["For the movers we'll use Acme Relocation, they quoted lowest."]
    );
    // The plan the task states is a decision, though it reads as an order; "whatever we
    // pick" makes no choice.
    let found = read(&[
        (
            "user",
            "Plan is to keep the old floor plan and just repaint the walls and the doors.",
        ),
        ("assistant", "Good."),
        (
            "user",
            "Whatever we pick has to be washable, the kids draw on everything.",
        ),
    ]);
    let kinds: Vec<Kind> = found.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, [Kind::Decision, Kind::Rule], "{found:?}");
}

#[test]
fn a_statement_settles_what_the_conversation_spoke_of() {
    let decisions = |turns: &[(&str, &str)]| -> Vec<String> {
        read(turns)
            .into_iter()
            .filter(|i| i.kind == Kind::Decision)
            .map(|i| i.text)
            .collect()
    };
    let asked = "For the mascot you could use a fox or an owl, and the colour scheme can be \
                 warm or cool. The launch venue is still open too, and so are the tastings.";
    let talk = |reply: &'static str| {
        [
            ("user", "Help me brand the bakery."),
            ("assistant", asked),
            ("user", reply),
        ]
    };
    for reply in [
        "The mascot is the owl.",
        "Colour scheme: warm, with a bit of teal.",
        "The fox wins.",
        "Warm colours for the signage.",
        "ok the launch venue will be the old station hall",
        "Tastings are Saturdays at 10, in the back room.",
    ] {
        assert_eq!(decisions(&talk(reply)), [reply], "{reply}");
    }
    // What the conversation never spoke of, a statement with a subject of its own, or one
    // about the past, settles nothing.
    for reply in [
        "Foxes are shy, my kids say.",
        "The mascot is about as old as the shop.",
        "The weather is awful today.",
        "The neighbours might join us for the tasting.",
        "It is a fox, I think.",
        "The mascot was an owl in my old shop.",
    ] {
        assert!(decisions(&talk(reply)).is_empty(), "{reply}");
    }
    // A long run-on sentence is read in its parts.
    let long = "So we talked it over at dinner and my partner made a very good point about \
                the owl looking a bit too much like the one on the bank across the road, \
                which nobody wants to be confused with, and honestly the fox always felt \
                friendlier to me anyway, and the kids at the school fair last weekend kept drawing foxes \
                on every paper plate we handed out, which my partner took as a sign from the \
                universe, and I am not one to argue with the universe — we're switching to the fox for the mascot, \
                with the warm colours we already picked and the hand-drawn lettering.";
    let found = decisions(&talk(long));
    assert!(
        found
            .iter()
            .any(|d| d.starts_with("we're switching to the fox")),
        "{found:?}"
    );
}

#[test]
fn an_update_replaces_by_the_words_of_its_subject() {
    // "update:" takes back; a version is one word; a plural names the same thing; a word
    // the reason shares with another choice does not outweigh the subject.
    let stale = superseded(&[
        ("user", "Plan the release of the mobile app with me."),
        ("assistant", "Sure: versions, dates, the build tooling."),
        ("user", "release 2.1 on Monday. plan backwards from that."),
        ("assistant", "Planned."),
        (
            "user",
            "For the builds we'll use the company runner pool, it is cheap.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "update: 2.1 goes out Wednesday, the store review takes longer this week.",
        ),
    ]);
    assert_eq!(stale, ["release 2.1 on Monday. plan backwards from that."]);
    let stale = superseded(&[
        ("user", "Help me move our schemas to the new database."),
        ("assistant", "Happy to. The migration tool matters most."),
        ("user", "The migration tool is Flyway, people know it."),
        ("assistant", "Fine."),
        ("user", "We'll host the reporting on the company BI server."),
        ("assistant", "Fine."),
        (
            "user",
            "Update: migrations are managed with Liquibase from now on — the platform team \
             standardised on it company-wide.",
        ),
    ]);
    assert_eq!(stale, ["The migration tool is Flyway, people know it."]);
}

#[test]
fn news_labelled_as_an_update_takes_back_only_what_it_sets() {
    // "Update: he's home!!" sets nothing: the switch after it takes back the litter
    // chosen before, not the news.
    let stale = superseded(&[
        ("user", "Help me get the flat ready for the cat."),
        (
            "assistant",
            "Litter: paper pellets, clumping clay or silica?",
        ),
        ("user", "Let's go with the paper pellets then."),
        ("assistant", "Good choice for a cat after surgery."),
        (
            "user",
            "Update: he's home!! The vet says the wound looks clean.",
        ),
        ("assistant", "Wonderful news."),
        (
            "user",
            "Could we switch to the unscented clumping clay instead?",
        ),
    ]);
    assert_eq!(stale, ["Let's go with the paper pellets then."]);
    // A value revised, bare: "Revising goal to sub-3:05."
    let stale = superseded(&[
        ("user", "Plan my marathon block."),
        ("assistant", "Which race, and what goal?"),
        ("user", "Goal is sub-3:10."),
        ("assistant", "Noted."),
        (
            "user",
            "Did another LT test yesterday, LT HR 171. Revising goal to sub-3:05. Can you redo \
             my paces?",
        ),
    ]);
    assert_eq!(stale, ["Goal is sub-3:10."]);
    assert_kind(
        Some(Kind::Decision),
        &[
            "Revising goal to sub-3:05.",
            "Extending the deadline to Friday.",
        ],
    );
    assert_kind(
        None,
        &["extending my stay was fun", "revising the draft now"],
    );
}

#[test]
fn a_count_replaced_by_its_number_and_a_day_set_with_a_habit_as_its_reason() {
    // "instead of four" names no choice: the count of beds, set anew, does.
    let stale = superseded(&[
        ("user", "Help me plan the raised beds."),
        ("assistant", "How many beds, and what size?"),
        ("user", "Let's say four beds, each 2.4 by 1.2."),
        ("assistant", "Four beds it is."),
        ("user", "The compost bins go by the shed."),
        ("assistant", "Noted."),
        (
            "user",
            "My neighbour gave me sleepers. So make it five beds instead of four.",
        ),
    ]);
    assert_eq!(stale, ["Let's say four beds, each 2.4 by 1.2."]);
    assert_kind(
        Some(Kind::Decision),
        &[
            "We're doing it Saturday 14 June.",
            "Let's make Sunday the batch cooking day, I'm usually round on Sundays anyway.",
        ],
    );
    assert_kind(
        None,
        &[
            "We usually take the bus to work.",
            "we meet on Tuesdays usually",
        ],
    );
}

#[test]
fn limits_said_by_a_count_a_penny_or_a_list_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "I can go to gym only three days in the week, more is not possible for me.",
            "Sessions can't run past three hours, because Tom and Bea have toddlers.",
            "We've got £600 in the fund and we are not spending a penny over that.",
            "Okay, so rebuilt and salvage titles are off my list.",
            "quiet hours from 11pm on weeknights is the one thing I'm not budging on.",
            "we've agreed: £18,000 all in, including fitting, and not a penny over.",
        ],
    );
    assert_kind(
        None,
        &[
            "we could only stay two nights last time",
            "the kids can't stay up past one",
            "we only sold three",
        ],
    );
}

#[test]
fn a_value_set_anew_takes_back_the_one_decision_of_its_kind() {
    let turns = [
        ("user", "Help me write the best man speech."),
        ("assistant", "What balance of jokes to sentiment?"),
        ("user", "Let's do 70/30, jokes to soppy stuff."),
        ("assistant", "Got it."),
        ("user", "Main story = the IKEA wardrobe saga."),
        ("assistant", "Drafted."),
        (
            "user",
            "ok the soppy bit made me well up ngl, didn't expect that. Change the ratio to \
             60/40 then, more heart.",
        ),
    ];
    assert_eq!(
        superseded(&turns),
        ["Let's do 70/30, jokes to soppy stuff."]
    );
    // Said as a reason's consequence, not as an override.
    let stale = superseded(&[
        ("user", "Help me budget the kitchen."),
        ("assistant", "How much contingency?"),
        ("user", "Let's hold back 10%, so £1,800."),
        ("assistant", "Noted."),
        (
            "user",
            "Sam wants more padding, so make the contingency 15%.",
        ),
    ]);
    assert_eq!(stale, ["Let's hold back 10%, so £1,800."]);
    let stale = superseded(&[
        ("user", "Help me with my cover letter."),
        ("assistant", "How long should it be?"),
        ("user", "Let's aim for about 350 words."),
        ("assistant", "Noted."),
        ("user", "Let's bring it down to 250 words."),
    ]);
    assert_eq!(stale, ["Let's aim for about 350 words."]);
    // Two decisions set a sum: which one a bare new sum replaces is not told.
    let stale = superseded(&[
        ("user", "Help me plan the party."),
        ("assistant", "Budget for food and drink?"),
        ("user", "Food gets £200."),
        ("assistant", "And drinks?"),
        ("user", "Drinks get £100."),
        ("assistant", "Noted."),
        ("user", "Make the total £250."),
    ]);
    assert!(stale.is_empty(), "{stale:?}");
}

#[test]
fn a_day_that_is_now_another_a_change_asked_after_its_label_and_what_makes_most_sense() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "so it's 17-19 Oct now.",
            "Slight change, can we move batch cooking to Saturday afternoons instead?",
            "So, one anchor day a week, and I suppose Wednesday makes the most sense.",
        ],
    );
    assert_kind(
        None,
        &[
            "it's raining now",
            "it's 5pm now",
            "That makes the most sense.",
            "whatever makes most sense to you",
        ],
    );
    let stale = superseded(&[
        ("user", "Help me plan his surprise weekend."),
        ("assistant", "Which weekend?"),
        (
            "user",
            "dates!! weekend of 10-12 Oct. his actual bday is the 11th",
        ),
        ("assistant", "Lovely."),
        ("user", "his work trip moved, so it's 17-19 Oct now."),
    ]);
    assert_eq!(
        stale,
        ["dates!! weekend of 10-12 Oct. his actual bday is the 11th"]
    );
}

#[test]
fn a_pick_that_opens_with_its_letter_is_the_one_a_pick_by_letter_replaces() {
    let stale = superseded(&[
        ("user", "Help me prepare my conference talk."),
        (
            "assistant",
            "Titles:\nA. Observability 101\nB. Your Dashboards Are Lying\nC. Beyond the \
             Pillars\nD. Asking New Questions of Production",
        ),
        (
            "user",
            "B — it'll get people in the room. Structure options?",
        ),
        (
            "assistant",
            "An incident narrative, or a tour of the tools.",
        ),
        (
            "user",
            "Ran it out loud yesterday. Cut to 18 slides — drop the maturity stuff and merge \
             the two tracing slides.",
        ),
        ("assistant", "Done."),
        (
            "user",
            "Program committee emailed, and B reads as clickbait to them. Fine — go with D \
             instead. Can it take a subtitle?",
        ),
    ]);
    assert_eq!(
        stale,
        ["B — it'll get people in the room. Structure options?"]
    );
}

#[test]
fn a_count_the_work_is_laid_over_is_set_and_set_anew() {
    assert_kind(
        Some(Kind::Decision),
        &["Plan it across 12 spreads.", "Spread it over 3 days."],
    );
    assert_kind(None, &["I read it over 3 days."]);
    let stale = superseded(&[
        (
            "user",
            "Help me write a picture book about a fox called Moss.",
        ),
        ("assistant", "How many spreads?"),
        ("user", "Plan it across 12 spreads."),
        ("assistant", "Twelve it is."),
        (
            "user",
            "Make it 14 spreads — give Moss one spread in a storm and one quiet spread.",
        ),
    ]);
    assert_eq!(stale, ["Plan it across 12 spreads."]);
}

#[test]
fn a_value_now_in_a_few_words_replaces_the_one_it_sets_anew() {
    assert_kind(Some(Kind::Decision), &["Duck at 28 now."]);
    assert_kind(None, &["we're at 28 now", "it's 5pm now"]);
    let stale = superseded(&[
        ("user", "Help me write the bistro's new menu."),
        ("assistant", "What should the duck cost?"),
        ("user", "Duck goes at 26."),
        ("assistant", "Done."),
        (
            "user",
            "Supplier rang. Duck legs up 11% from the first of the month. Duck at 28 now. \
             Sort the menu.",
        ),
    ]);
    assert_eq!(stale, ["Duck goes at 26."]);
}

#[test]
fn a_rule_and_a_choice_in_one_short_message_stand_apart() {
    // Taking the choice back later keeps the rule said beside it.
    let found = read(&[
        ("user", "Help me plan the fundraiser."),
        ("assistant", "Sure. Which caterer, Luigi's or the deli?"),
        (
            "user",
            "Let's go with Luigi's. Never serve anything with peanuts.",
        ),
        ("assistant", "Noted."),
        ("user", "Scratch Luigi's, the deli is cheaper."),
    ]);
    let standing: Vec<&str> = found
        .iter()
        .filter(|i| i.superseded.is_none())
        .map(|i| i.text.as_str())
        .collect();
    assert!(
        standing.contains(&"Never serve anything with peanuts."),
        "{found:?}"
    );
    assert!(!standing.contains(&"Let's go with Luigi's."), "{found:?}");
}

#[test]
fn an_override_takes_back_a_rule_shaped_choice_it_names_twice() {
    // "the narrator is …, because every time …" reads as a rule; an override naming it
    // twice takes it back, one naming it once does not.
    let turns = |override_said: &'static str| {
        superseded(&[
            ("user", "Help me draft the novel."),
            ("assistant", "Sure. Who tells the story?"),
            (
                "user",
                "The narrator is Mira, in first person, because every time I try third it goes flat.",
            ),
            ("assistant", "Noted."),
            ("user", override_said),
        ])
    };
    assert_eq!(
        turns("Scratch the first person idea, it's close third on Mira from now on."),
        ["The narrator is Mira, in first person, because every time I try third it goes flat."]
    );
    assert!(turns("Actually, let's go with a prologue in the harbour.").is_empty());
}

#[test]
fn a_choice_made_again_is_one_that_shares_a_good_part_of_its_words() {
    let gone = superseded(&[
        ("user", "Help me plan the garden."),
        (
            "user",
            "We're doing a meadow instead of the front lawn, with a mown path curving up to \
             the front door so it doesn't look abandoned.",
        ),
        (
            "assistant",
            "For the path to the back door: gravel, flagstone or wood chips.",
        ),
        (
            "user",
            "For the path from the drive to the back door, the path will be gravel, edged \
             with steel so it doesn't spread into the beds.",
        ),
        ("user", "We'll go with Reaper for the recording software."),
        ("user", "Ardour it is for the recording software, final."),
        (
            "user",
            "Back to scheduling: for online booking, we'll use Vetstoria since the \
             receptionists already saw a demo.",
        ),
        (
            "user",
            "Update on the booking software: forget Vetstoria, we're going with PetDesk. \
             Don't forget to send the invoice.",
        ),
    ]);
    assert_eq!(gone.len(), 2, "{gone:?}");
    assert!(gone[0].contains("Reaper"), "{gone:?}");
    assert!(gone[1].contains("Vetstoria since"), "{gone:?}");
}

#[test]
fn done_deals_commitments_and_limits_said_in_passing() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "ok we picked the 2-inch white hex with black grout.",
            "so we bought the CR-V Hybrid instead — 2021, 34k miles, car seats fit great.",
            "went with two Ubiquiti U6+ access points instead, one on each floor.",
            "So we went back to the Lakeside Inn and signed yesterday.",
            "I booked the 7:25 Blue Star to Naxos on the 24th.",
            "ok I'm signing up for the JLPT N5 in December.",
            "I'm going to ask them to strike the automatic renewal clause.",
            "Given that, I will counter at $104,000.",
            "I'll start with my mother's side, it's the one with more stories anyway.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &[
            "The concert can't run longer than 75 minutes including intermission.",
            "But Duolingo is banned, the streak thing just made me anxious.",
            "The kids' one demand is that every hotel needs a pool lol.",
            "To be clear with myself: I will not go below $92,000 base, regardless of bonus.",
            "Also leave out test accounts, their emails end in @qa.example.io.",
            "I want to keep it in first person present tense, that's the voice I hear.",
        ],
    );
    assert_kind(
        None,
        &[
            "I picked three cabinet colours I like, all some shade of green.",
            "I'm building a mobile app for my running club.",
            "Keep going, this is great.",
            "She needs a nap before the party.",
        ],
    );
}

#[test]
fn two_choices_in_one_message_stand_apart_and_overrides_said_in_passing() {
    let gone = superseded(&[
        ("user", "Help me buy a family car."),
        (
            "user",
            "let's go with the RAV4 Hybrid. also we're paying cash, no financing.",
        ),
        (
            "user",
            "update: the RAV4 we wanted sold before we could test drive it. so we bought the \
             CR-V Hybrid instead.",
        ),
        (
            "user",
            "Route A sounds more our speed. let's do Milos as the last island",
        ),
        (
            "user",
            "Scrap Milos, we're ending on Paros instead, I don't want a bumpy crossing.",
        ),
        (
            "user",
            "I think we'll call the podcast \"Old Roads Home\", Priya agrees.",
        ),
        (
            "user",
            "there's already a podcast called Old Roads, so we're renaming it \"Back Roads \
             & Bygones\".",
        ),
    ]);
    assert_eq!(gone.len(), 3, "{gone:?}");
    assert!(
        gone[0].contains("RAV4") && !gone[0].contains("cash"),
        "{gone:?}"
    );
    assert!(gone[1].contains("Milos as the last"), "{gone:?}");
    assert!(gone[2].contains("Old Roads Home"), "{gone:?}");
}

#[test]
fn a_statement_with_a_question_tagged_on_still_states() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "I'm aiming for 4:15, seems doable?",
            "we'll go with Postgres — sound good?",
        ],
    );
    assert_kind(Some(Kind::Rule), &["never use floats for money, ok?"]);
    assert_kind(
        None,
        &[
            "should we go with Postgres, or MySQL?",
            "Should we go with Postgres, right?",
            "what about the blue one?",
            "Postgres, or MySQL?",
            "If we went with leasing instead, how would that look?",
        ],
    );
}

#[test]
fn a_part_settled_bare_a_goal_and_a_time_taken_back() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "And long runs will be Sunday mornings, my partner has the kids then.",
            "title will be \"Boring Postgres Tricks That Saved Us\"",
            "new goal is just to finish feeling strong",
        ],
    );
    assert_kind(
        None,
        &[
            "Patients will be sitting right next to it.",
            "It will be cold by then.",
            "I'll take the dog out, back in ten.",
        ],
    );
    // "4:15" is the word the override names: it takes back the goal, not the start date.
    let gone = superseded(&[
        ("user", "Help me train for my first marathon."),
        ("assistant", "Sure. What goal time?"),
        (
            "user",
            "I'm aiming for 4:15, seems doable based on the half?",
        ),
        ("assistant", "Ambitious but realistic."),
        ("user", "Race is 27 Oct, I'm starting Monday 1 July."),
        ("assistant", "Good, that gives you 16 weeks."),
        (
            "user",
            "So forget 4:15, new goal is just to finish feeling strong.",
        ),
    ]);
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert!(gone[0].contains("aiming for 4:15"), "{gone:?}");
}

#[test]
fn house_rules_said_as_habits_needs_and_a_thing_placed() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "We don't do hikes over 3 miles, round trip.",
            "we have $9k saved and we don't touch the emergency fund for anything else",
            "the office on the 3rd floor needs wired ethernet, wifi is flaky",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["ok put the router in the basement next to the modem."],
    );
    assert_kind(
        None,
        &[
            "I don't know what to pick.",
            "I never got a reply from them.",
            "we don't have a car yet.",
            "the kids need a nap.",
            "the recipe needs to rest overnight.",
        ],
    );
}

#[test]
fn changes_ordered_and_swaps_replace_and_a_question_joined_by_and_keeps_the_choice() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "switch prep day to Wednesday evening, and I guess I'll freeze the Monday portions?",
            "so skip the pass and book point-to-point tickets early, he's right",
            "ok counter at $97k then, she says that's still very defensible",
            "I'll cut section 2.3 entirely, that's 2,100 words gone",
        ],
    );
    assert_kind(
        None,
        &["I like the blue one, but is it too dark for a small room?"],
    );
    let gone = superseded(&[
        ("user", "Build me a signup form."),
        ("assistant", "Sure. Which form library?"),
        ("user", "let's go with react-hook-form and zod."),
        ("assistant", "Good pick."),
        ("user", "we'll prep the build on Sunday afternoons."),
        ("assistant", "Noted."),
        (
            "user",
            "ok bad news, the bundle is too big. so we're swapping zod for valibot on the \
             frontend, backend keeps zod",
        ),
        ("assistant", "Valibot is much smaller."),
        ("user", "change the build day to Wednesday evening."),
    ]);
    assert_eq!(gone.len(), 2, "{gone:?}");
    assert!(gone[0].contains("react-hook-form"), "{gone:?}");
    assert!(gone[1].contains("Sunday"), "{gone:?}");
}

#[test]
fn limits_by_a_number_refusals_and_who_cannot_be_together_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "I only get 20 minutes on weekdays",
            "our sessions are 3 hours max",
            "our budget is €4,000 for both of us, not counting flights",
            "I need to be able to work remote at least 2 days a week",
            "I won't lie about having another offer",
            "im not doing goody bags theyre just plastic junk",
            "im not going to feed it more than once a day",
            "Uncle Rob and Aunt Denise can NOT be at the same table",
        ],
    );
    assert_kind(
        None,
        &[
            "I'm not going to lie, it was hard.",
            "I tried at least 3 times.",
            "it can't be the cache.",
            "I can't be there on Friday.",
        ],
    );
}

#[test]
fn back_to_a_choice_and_a_compromise_replace() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "ok back to a pass, the 5 days within 1 month one",
            "compromise: tub-shower combo with a new soaking tub",
        ],
    );
    assert_kind(None, &["back to the question about the tiles."]);
    let gone = superseded(&[
        ("user", "Plan our trip."),
        ("assistant", "A rail pass or tickets?"),
        ("user", "let's get the 7 travel days in 1 month pass."),
        ("assistant", "Good."),
        (
            "user",
            "so skip the pass and book point-to-point tickets early.",
        ),
        ("assistant", "Cheaper."),
        ("user", "ok back to a pass, the 5 days within 1 month one"),
    ]);
    assert!(
        gone.last().is_some_and(|g| g.contains("point-to-point")),
        "{gone:?}"
    );
}

#[test]
fn a_question_without_its_mark_settles_nothing() {
    let found = read(&[
        ("user", "Help me deploy the API on AWS."),
        (
            "assistant",
            "ECS on Fargate or EKS. ECS is simpler; EKS gives you Kubernetes.",
        ),
        ("user", "what's the catch with ECS"),
        ("assistant", "Less portable."),
        ("user", "Prague: how long should we stay there"),
        ("assistant", "Three days."),
        ("user", "how many days is Prague, realistically"),
    ]);
    assert!(found.is_empty(), "{found:?}");
    assert_kind(
        None,
        &[
            "what's the hotel situation in Amsterdam, it seems insanely expensive",
            "Prague: what's a realistic 3 days",
            "how long should I rest between sets",
            "anything I should know about renting there",
            "any tips for the drive",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["when we land, let's take the airport bus."],
    );
}

#[test]
fn a_value_accepted_a_leaning_a_seal_and_a_change_are_choices() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "the start date they proposed is March 3, fine by me",
            "Thursday at 7 works for me.",
            "I'm thinking switch her to wet food only",
            "thinking two 4x8 beds",
            "I'm thinking we go with the blue one",
            "my objective is finishing under 4 hours 30",
            "ok final, she's Tamsin.",
        ],
    );
    assert_kind(
        None,
        &[
            "that works",
            "I'm thinking about Lisbon but it's too hot",
            "I'm thinking the cache is the problem",
            "thinking of it, the cache is old",
        ],
    );
    let found = read(&[
        ("user", "Help me name my novel."),
        ("assistant", "Tell me about it."),
        ("user", "The title is Salt Year. final. moving on."),
    ]);
    assert!(
        found
            .iter()
            .any(|i| i.kind == Kind::Decision
                && i.text.starts_with("The title is Salt Year. final.")),
        "{found:?}"
    );
    let gone = superseded(&[
        ("user", "Plan raised beds for my backyard."),
        ("assistant", "How many beds?"),
        ("user", "thinking two 4x8 beds"),
        ("assistant", "Good size."),
        (
            "user",
            "the corner gets no sun. ok change: three 3x6 beds in an L along the sunny side.",
        ),
    ]);
    assert_eq!(gone, ["thinking two 4x8 beds"]);
}

#[test]
fn a_thing_we_are_doing_is_chosen_wherever_it_is_said() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "we're doing a walk-in shower",
            "ok rip out the tub, we're doing a walk-in shower",
            "venue says long banquet tables fit better so we're doing three long tables",
        ],
    );
    assert_kind(
        None,
        &[
            "we're doing great so far.",
            "honestly we're doing a lot of driving already.",
            "the kids are fine, we're doing ok.",
        ],
    );
}

#[test]
fn a_run_on_sentence_says_its_choice_first_and_what_if_asks() {
    let found = read(&[
        ("user", "Help me plan my vegetable garden."),
        (
            "assistant",
            "Where should the tomatoes go? The south bed gets the most sun.",
        ),
        (
            "user",
            "actually the tomatoes go in the raised bed by the shed the dog thing worries me more than losing a bit of sun",
        ),
        ("assistant", "Fine."),
        (
            "user",
            "what if we had a class pet like a fish tank to go with the theme im not sure yet",
        ),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].text.starts_with("actually the tomatoes"),
        "{found:?}"
    );
}

#[test]
fn changes_said_without_a_subject_and_a_name_then_instead_are_choices() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "switching the coast base to Rovinj",
            "scrapping the module, I'm writing my own swamp-town setting",
            "bumping the set-aside to 30%",
            "signing up for the Harvest Hills 10K",
            "nope, doing the April half-marathon at Crane Reservoir",
            "starting with the voicemail he left me from the airport",
            "ordered a nuc from Hollow Oak Apiary for late April",
            "snowball instead, I need the quick wins to stay motivated",
            "the RAV4 hybrid from the private seller instead — a bit over budget",
            "I'll make an offer on the 2018 CX-5 at Brookline Motors",
        ],
    );
    assert_kind(
        None,
        &[
            "writing a small rust cli that parses nginx access logs.",
            "Returning to the agreement, Section 9 concerns liability.",
            "cutting it close.",
            "it's cheaper instead.",
            "switching the coast base to Rovinj?",
        ],
    );
    // A change said bare takes back the choice before it; a deal done carries one out.
    let gone = superseded(&[
        ("user", "Help me train for a race."),
        ("assistant", "A 10K or a half?"),
        ("user", "signing up for the Harvest Hills 10K"),
        ("assistant", "Great."),
        (
            "user",
            "nope, doing the April half-marathon at Crane Reservoir",
        ),
        ("assistant", "Noted."),
        ("user", "doing mine in person at the post office."),
        ("assistant", "Fine."),
        ("user", "booked the February 10 slot at the post office."),
    ]);
    assert_eq!(gone, ["signing up for the Harvest Hills 10K"]);
}

#[test]
fn budgets_ceilings_refusals_and_what_a_thing_cannot_be_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "the beds can't go in the front yard, HOA rules",
            "my whole budget for supplies is $60",
            "I can't take more than two days off work for this",
            "I'm not paying for expedited unless there's truly no other way",
            "she won't touch anything with fish in it, ever",
            "we can spend about $80 a month on her food",
            "Teodor gets seasick so nothing involving boats",
            "I refuse to finance through the dealer",
            "Mina is allergic to tree nuts so none of that in anything",
        ],
    );
    assert_kind(
        None,
        &[
            "the app can't connect to the database.",
            "Note however that you cannot use any interactive session commands in this environment.",
            "I'm not seeing any logs at all.",
            "we're not planning to sell for 10+ years.",
            "I can't believe it took more than 3 days.",
        ],
    );
}

#[test]
fn changes_whatever_comes_between_people_engaged_and_a_name_given_in_to() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "switching food to Hartley's barbecue, they do a veggie option too",
            "ok, hiring Bluebird Movers to do the whole thing",
            "I'm doing the balance transfer to the 0% card",
            "price the 8oz tins at $18",
            "I'll host it on Buzzsprout",
            "I'll set up an Etsy shop for online orders",
            "fine, Formik then since the team already knows it",
        ],
    );
    assert_kind(
        None,
        &[
            "I'm doing my master's thesis in sociology on gig workers.",
            "hiring is hard right now.",
            "moving is stressful.",
            "fine, thanks since you asked.",
        ],
    );
}

#[test]
fn a_choice_given_as_a_bare_order_is_a_decision_and_a_loose_use_of_the_verb_is_not() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "ok use email plus postcode, that should separate households from actual dupes",
            "cut the recipe importer, it's a black hole.",
            "book the lakeside lodge, the team will love it.",
            "treat the likert items as ordinal, my advisor is strict on that.",
            "base the average on the last 90 days of usage.",
            "So put him on a 60-day PIP.",
            "return 429 with a Retry-After header, json body like that is good.",
            "dropping vegas, its just phoenix and tucson.",
            "so using mann-whitney for the between-ward comparisons.",
        ],
    );
    assert_kind(
        None,
        &[
            "use your judgement on the rest.",
            "Use it however you like.",
            "I used to cut the grass on Sundays.",
            "dropping off the kids at school made me late.",
            "using my phone for the photos was a mistake.",
            "return to the list when you are done.",
        ],
    );
}

#[test]
fn advice_reported_is_no_instruction_and_a_plan_to_do_a_thing_is_a_decision() {
    assert_kind(
        None,
        &[
            "my neighbor keeps ducks and says we should get ducks instead, they lay more.",
            "my mom thinks I should get a roommate to save money.",
            "her school counselor told her she should write about the move.",
            "I'll tell her.",
            "ok we'll check the numbers.",
            "I'll figure it out later.",
            "I'll probably redo the portfolio.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "My lead thinks we should use Kafka and I agree, let's do it.",
            "I'll just use a spreadsheet for now and get a CPA for the first return.",
            "I'm going to focus on the CX-5.",
            "And I'll redo my portfolio around the scheduling project as the main case study.",
            "I'll launch it on September 15.",
        ],
    );
}

#[test]
fn a_reaction_names_no_option_and_drop_takes_a_choice_back() {
    let asked = "Lisbon hotel quotes or Porto hotel quotes: which do you want first?";
    for reply in [
        "good to know.",
        "quotes came back.",
        "perfect. what's the timeline",
    ] {
        let found = read(&[
            ("user", "Help me plan the team offsite."),
            ("assistant", asked),
            ("user", reply),
        ]);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
    let gone = superseded(&[
        ("user", "We need to build the shared libraries."),
        ("assistant", "tsup or plain tsc?"),
        ("user", "ok we'll build the libs with tsup."),
        ("assistant", "Done."),
        ("user", "Drop tsup; packages get built with plain tsc."),
    ]);
    assert_eq!(gone, vec!["ok we'll build the libs with tsup.".to_owned()]);
}

#[test]
fn words_without_apostrophes_news_of_a_change_and_make_it_are_read() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "i cant go above $20 at the market tho",
            "flash isnt allowed at her games",
            "he can't have chicken, it makes him itch like crazy",
            "my share of rent cant be more than $700",
            "anything we cook at dinner has to be gluten-free",
            "i only want to work on this on weekends, weekdays are for class",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "Ok, make it 2 Orpingtons and 2 Easter Eggers",
            "So I've switched to Thursday afternoons at the pantry desk",
            "booked him for next thursday at 10",
            "cancelled peloton, just using the free youtube postnatal program",
            "im gonna make my own starter, seems fun",
            "gonna use pimsleur, a friend used it before japan",
            "she stays at her school through the end of this year, that's decided",
            "We'll do an estate sale for whatever's left after the move",
        ],
    );
    assert_kind(
        None,
        &[
            "make it shorter please",
            "i cant get it to work",
            "the app cant connect to the db",
            "i only want to know what it costs",
        ],
    );
}

#[test]
fn what_an_override_scraps_by_name_is_what_it_takes_back() {
    assert_eq!(
        superseded(&[
            ("user", "Help me budget my raise."),
            ("assistant", "Sure: 50/30/20 or zero-based?"),
            (
                "user",
                "ok cool. let's do the 50/30/20 split, that seems easy enough."
            ),
            ("assistant", "Great."),
            (
                "user",
                "ok yeah I'll put the extra $300 a month toward the car loan."
            ),
            ("assistant", "Good plan."),
            (
                "user",
                "actually scrap the 50/30/20 thing, I'm going with zero-based budgeting.",
            ),
        ]),
        ["ok cool. let's do the 50/30/20 split, that seems easy enough."]
    );
}

#[test]
fn what_we_can_not_do_to_the_work_and_what_it_is_pinned_to_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "we can't change the public schema, mobile clients depend on it",
            "we can't spend on a lawyer until the seed round closes",
            "the external version can't mention the vendor by name",
            "we're stuck on 1.54 for now, can't bump",
            "we're staying on terraform 1.5.x",
            "we need to use American English and second person",
            "a secondary is mandatory",
        ],
    );
    assert_kind(
        None,
        &[
            "we can't get it to work",
            "we cant reproduce it locally",
            "I'm stuck on this bug for hours",
            "we're stuck on the same error again",
            "the app can't connect to redis",
        ],
    );
}

#[test]
fn a_pick_that_ends_its_first_clause_and_doing_said_after_news_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "URL path it is: /v2/... for changed endpoints",
            "Soda didn't pan out, we're just doing plain PySpark checks: one per table",
        ],
    );
    assert_kind(None, &["we tried, it is what it is, anyway"]);
}

#[test]
fn facts_measures_and_choices_still_to_make_are_not_instructions() {
    assert_kind(
        None,
        &[
            "ordering matters per order id.",
            "ops team is 2 people.",
            "EM/F1 stays as a smoke check for now.",
            "that's in every contract.",
            "mean flips between runs: 7.4 questions out of 312.",
            "correlation between F1 and PM's rating: 0.21.",
            "7.4 questions out of 312 flip between runs.",
            "need to pick a queue for order events.",
            "help me choose a CI provider for the monorepo.",
        ],
    );
    // Orders with a clause for their object, bounds a statement sets, plans that end on
    // what they replace, and a bound between two numbers stay instructions.
    assert_kind(
        Some(Kind::Rule),
        &[
            "Assume prices are in EUR.",
            "Ensure logs are rotated daily.",
            "MVP is email + in-app only",
            "Active means at least one session_start event in that week.",
            "Keep the batch size between 32 and 64.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["MIS has spots for both, so both kids are going to Munich International School instead."],
    );
    // The override replaces the choice it names an option of, not a fact that shares
    // its words ("ordering" was read as a decision and taken back instead).
    let found = read(&[
        (
            "user",
            "need to pick a queue. ordering matters per order id. options: kafka, SQS FIFO, kinesis",
        ),
        ("assistant", "SQS FIFO or Kinesis both keep per-key order."),
        (
            "user",
            "let's go with SQS FIFO, SNS FIFO fanout to one queue per consumer.",
        ),
        ("assistant", "Here is the publish code."),
        (
            "user",
            "talked to the team. ok switching to Kinesis, per-shard ordering by order id is enough for us.",
        ),
    ]);
    let sqs = found
        .iter()
        .find(|i| i.text.contains("SQS FIFO, SNS"))
        .expect("the SQS choice");
    assert!(sqs.superseded.is_some(), "{found:#?}");
    assert!(
        !found.iter().any(|i| i.text.contains("ordering matters")),
        "{found:#?}"
    );
}

#[test]
fn scores_reported_are_no_choice_and_a_possessive_names_its_thing() {
    assert_kind(
        None,
        &[
            "test set results: macro-F1 0.738, security recall 0.93 with the override at 0.2.",
            "distilroberta: macro-F1 0.731 ± 0.012",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &[
            "20% of each squad is reserved for bugs, non negotiable per our CTO",
            "My wife is firm, so nothing that sounds like a threat.",
        ],
    );
    let found = read(&[
        (
            "user",
            "We're on Python 3.10. let's go with Poetry, one pyproject per package with path deps.",
        ),
        ("assistant", "Here is the layout."),
        (
            "user",
            "Poetry's monorepo story is too clunky for us — switching to uv workspaces with a single lockfile.",
        ),
    ]);
    let poetry = found
        .iter()
        .find(|i| i.text.contains("go with Poetry"))
        .expect("the Poetry choice");
    assert!(poetry.superseded.is_some(), "{found:#?}");
}

#[test]
fn what_we_do_to_the_work_said_in_the_present_is_a_decision() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "We merge WP2 and WP3 into one — two work packages total",
            "we omit price from JSON-LD for now",
            "we pay candidates $150 for the take home",
        ],
    );
}

#[test]
fn what_the_people_and_places_of_the_work_will_not_have_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "our lease doesn't allow any alcohol on the premises",
            "my husband refuses to pay for lightning lane",
            "he asked me not to use any kids' books",
            "my daughter does NOT want a DJ or anything loud, she wants it chill",
            "we are not doing full cry it out, my wife isn't comfortable with it",
            "my husbands tools are NOT for sale, they stay on the shelf",
            "so anything with a lot of walking is out for him.",
            "nothing on the menu goes over $15, thats a hard line for me",
            "im not putting this on a credit card, period.",
            "the Hendersons can't drive mornings at all",
        ],
    );
    // A fault, a wish about the past, a person who can't come: no rule.
    assert_kind(
        None,
        &[
            "we can't get the build to work",
            "I can't believe how fast that was",
        ],
    );
}

#[test]
fn a_bound_of_the_work_said_as_its_value_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "min sdk is 24",
            "max upload size is 10mb",
            "the memory limit is 512Mi per pod",
            "minimum order is 50 units",
        ],
    );
    // How things stand now, measured: no bound set.
    assert_kind(
        None,
        &[
            "the max latency was 900ms",
            "the max is 800ms right now",
            "max throughput is currently 2k rps",
        ],
    );
}

#[test]
fn a_bare_order_that_does_a_thing_to_the_work_is_a_decision() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "accept the risk on the outdated jquery in the admin panel",
            "move raw data older than 90 days to Atlas Online Archive",
            "split by dashboard topic so the test set has unseen tables",
            "compress to 1600px long edge jpeg quality 80 before upload",
            "generate SBOMs with syft in CI and attach to the github release",
            "exclude 429s from errors, those are rate limits on purpose",
            "actually drop celery for arq, it's async and our whole stack is async already",
            "put a bounded buffer of 1000 in front of the enrich stage",
            "ok ship the shared module as an xcframework through SPM",
            "Start from whisper-large-v3-turbo and fine-tune the full model.",
        ],
    );
    // The same words as nouns, a request for an answer, a proposal reported.
    assert_kind(
        None,
        &[
            "cache has ~200k entries",
            "shard 1 took 4m10s, shard 2 2m50s",
            "batch of 24 takes me maybe 3 hrs",
            "split this into two functions please",
            "generate a script that renames them",
            "a colleague suggested writing our own binlog reader in go instead of running connect",
            "one of the staff engineers wants us to buy snyk",
            "never mind, I found it",
        ],
    );
}

#[test]
fn an_instruction_after_the_topic_it_answers_and_an_override_that_drops_a_choice() {
    let found = read(&[
        ("user", "Set up CDC from our MySQL into Kafka."),
        (
            "assistant",
            "Debezium's MySQL connector fits; which format do you want?",
        ),
        (
            "user",
            "format — use the avro converter with the schema registry we already run. \
             what does the connector config look like",
        ),
        ("assistant", "Here is the config."),
        (
            "user",
            "for jquery — accept the risk on the outdated jquery in the admin panel.",
        ),
        ("assistant", "Noted; write a risk acceptance."),
        (
            "user",
            "nvm on the risk acceptance, we upgrade jquery too, to 3.7 with jquery-migrate.",
        ),
    ]);
    assert!(
        said(&found, "use the avro converter").is_some(),
        "{found:?}"
    );
    let accepted = said(&found, "accept the risk").expect("the risk accepted");
    assert!(accepted.superseded.is_some(), "{found:?}");
    assert!(
        found.iter().any(|i| i.text.starts_with("nvm on the risk")),
        "{found:?}"
    );
}

#[test]
fn choices_made_by_the_people_of_the_work_or_said_as_deals_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "he picked the paper towel one",
            "Valeria has chosen her cousin Mateo to be her chambelán de honor",
            "We're renting a 4x4 from Adobe Rent a Car",
            "We're starting on Sunday, September 14, from Sarria",
            "I'm pricing the 8 oz jars at $9 across the board for now",
            "I signed up for the Lake Mendota sprint on August 10",
            "ordered brass pulls from amazon, 5 inch centers",
            "Okay, I'm accepting 5%.",
        ],
    );
    assert_kind(
        None,
        &[
            "I'm accepting that it's late.",
            "my wife picked up the kids",
            "he chose to ignore it",
            "Signed up to coach my son's U8 rec soccer team.",
            "we're building a marketplace for tutors",
            "they know pivot tables",
        ],
    );
}

#[test]
fn what_the_people_of_the_work_insist_on_or_will_not_agree_to_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "my ex won't agree to any exchanges at his mother's house",
            "her budget tops out at $3,000 for both ears",
            "no owner may speak for more than two minutes during open forum",
            "we can't drive more than about 3 hours on any single day",
            "My husband insists we not name his brother as guardian under any circumstances",
            "my wife won't have any cactus or spiky stuff, grandkids are over constantly",
            "the school requires that all snacks shared in class be store-bought with labels",
            "daycare requires pull-ups until he's gone a full week with zero accidents",
            "The board has capped the costume budget at $1,500 total",
            "We would prefer to spend no more than $45 per month on the rental",
            "I also can't do anything first thing in the morning",
        ],
    );
    // What a thing takes, measured: no rule.
    assert_kind(
        None,
        &[
            "it requires that you restart",
            "this takes no more than 5 minutes",
        ],
    );
}

#[test]
fn what_the_work_can_never_suffer_and_an_upper_bound_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "we can't lose any open PR's work",
            "The payments namespace cannot experience any downtime during the rollout",
            "email can't bounce or be delayed at any point during the migration",
            "the feature lookup can take at most 10ms p99 of the 50ms budget",
        ],
    );
    // What someone can't find, get or afford, and a fault: no rule.
    assert_kind(
        None,
        &[
            "I can't find any docs on this",
            "we can't get any traction",
            "it can't handle any load",
        ],
    );
}

#[test]
fn an_instruction_around_its_topic_or_its_list_and_a_change_said_done() {
    let found = read(&[
        ("user", "Help me plan my daughter's quinceañera."),
        (
            "assistant",
            "Gladly. Start with the date and the reception hall.",
        ),
        (
            "user",
            "I spoke with the parish office. For the reception, we are renting Salón Los \
             Arcos, which holds 180. For Saturday night dinner we're doing Bottega in \
             Yountville. Regarding open forum, let us cap it at 20 minutes total.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "We picked a lilac ball gown from a boutique on Zarzamora.",
        ),
        ("assistant", "Lovely."),
        ("user", "We have changed to the emerald green gown instead."),
    ]);
    let listed = read(&[
        ("user", "Redesign our Snowflake RBAC."),
        (
            "assistant",
            "Warehouses: one per functional role is simplest.",
        ),
        ("user", "warehouses: one per functional role, XS default."),
        ("assistant", "Noted."),
        (
            "user",
            "cost is already high on the dbt warehouse, $11k/mo. finance wants monitors \
             on everything. actually one shared warehouse per workload type instead: BI_WH, \
             ADHOC_WH, TRANSFORM_WH, LOAD_WH, per-team attribution via query tags",
        ),
    ]);
    assert!(
        listed
            .iter()
            .any(|i| i.text.contains("one shared warehouse") && i.superseded.is_none()),
        "{listed:?}"
    );
    for text in [
        "we are renting Salón Los Arcos",
        "we're doing Bottega",
        "let us cap it at 20 minutes",
        "changed to the emerald green gown",
    ] {
        assert!(said(&found, text).is_some(), "{text}: {found:?}");
    }
    let lilac = said(&found, "lilac").expect("the first gown");
    assert!(lilac.superseded.is_some(), "{found:?}");
    // News of a move is no change of the work.
    assert_kind(None, &["we moved to Denver in 2019"]);
}

#[test]
fn a_reply_that_opens_on_an_option_laid_out_picks_it() {
    let laid_out = "Where to stay on Santorini:\n\n| Village | View |\n|---|---|\n| **Oia** | famous sunset |\n| **Imerovigli** | quiet, caldera views |\n\n**Option 2: Rotating templates**\n- Pick 3–4 base meals and rotate them.";
    for reply in [
        "imerovigli. the quiet thing sold me. what about the sunset cruise?",
        "the rotating one. he likes routine anyway",
    ] {
        let found = reply_to(laid_out, reply);
        assert_eq!(found.len(), 1, "{reply}: {found:?}");
        assert_eq!(found[0].kind, Kind::Decision, "{reply}");
    }
    // A label for what follows, a statement, a question, a word the options share with
    // something else: no pick.
    for reply in [
        "Oia — how crowded is it really?",
        "Oia is gorgeous in the photos.",
        "imerovigli?",
        "good list.",
    ] {
        let found = reply_to(laid_out, reply);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
}

#[test]
fn a_reply_that_names_a_listed_option_by_its_place_picks_it() {
    let listed = "Three options:\n\n1. **Shure SM7B**: $399 each.\n2. **Shure MV7+**: $279 each.\n3. **Rode PodMic**: $99 each.\n\nWhich one?";
    for reply in [
        "The third one. Rode PodMics, three of them.",
        "second one",
        "Option 2.",
        "number 3",
    ] {
        let found = reply_to(listed, reply);
        assert_eq!(found.len(), 1, "{reply}: {found:?}");
        assert_eq!(found[0].kind, Kind::Decision, "{reply}");
        assert_eq!(found[0].text, reply);
    }
    // With more said after it, and no question offering the list.
    let laid_out = "Three common approaches:\n\n1. **Separate copies**, one per scenario.\n2. **A scenario selector** on Inputs.\n3. **Scenario Manager**.";
    let found = reply_to(
        laid_out,
        "The second one. Copies of the model are a nightmare and nobody remembers Scenario Manager. Show me how the live column works.",
    );
    assert_eq!(found[0].kind, Kind::Decision, "{found:?}");
    assert!(found[0].text.starts_with("The second one."), "{found:?}");
    // Asked back, said of something else, or after a message that listed nothing: no pick.
    for (asked, reply) in [
        (listed, "The third one?"),
        (listed, "The third one broke last year."),
        ("Do you record alone or with guests?", "The second one."),
    ] {
        let found = reply_to(asked, reply);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
}

#[test]
fn a_pick_by_place_that_names_an_option_laid_out_in_prose_picks_it() {
    let prose = "There are three ways to house everyone: the lodge in town, which is central; the cabins by the lake, which are quiet; or the hostel, which is cheapest. Which suits the group?";
    for reply in [
        "Number 2, the cabins, with the change that we book only the two biggest ones.",
        "2, the cabins by the lake. Quiet matters more than price.",
    ] {
        let found = reply_to(prose, reply);
        assert_eq!(found.len(), 1, "{reply}: {found:?}");
        assert_eq!(found[0].kind, Kind::Decision, "{reply}");
    }
    // A place with words the options do not have, or asked back: no pick.
    for reply in [
        "2, honestly I am torn between them.",
        "Number 2, the cabins?",
    ] {
        let found = reply_to(prose, reply);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
}

#[test]
fn a_choice_closed_in_short_or_asked_as_a_change_is_a_decision() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Rounds of eight, decided, done, moving on before I change my mind lol.",
            "Lock the buns in at £3.20.",
            "I rather think 'Lifting the Floor' is the one, as it says what we actually found.",
            "Final count: **3 screens**.",
            "The age range on the flyer should read 45 to 75.",
            "Make linneahart.com the main domain and just redirect the .studio one to it.",
            "May we change the title to 'Light in Midwinter', please?",
            "Can we move the gala to the 14th?",
            "Keep Harborview, but move the gala to Friday, November 14.",
            "Go w/ ISBAR.",
        ],
    );
    assert_kind(
        None,
        &[
            "We haven't decided, honestly.",
            "Which is the one?",
            "She is the one who called.",
            "Lock the door in the evening.",
            "Should we change the title to something shorter?",
            "Can you change this paragraph to be shorter?",
        ],
    );
}

#[test]
fn a_pick_by_a_number_settled_a_name_closed_on_then_and_a_listed_value_set_anew() {
    let numbered = "Three themes:\n\n1. **Mushroom Forest**: glowing caps.\n2. **Abandoned Subway**: dark tunnels.\n3. **Sky Scrapyard**: junk on clouds.";
    let found = reply_to(numbered, "ok 2 for sure, subway is so much cooler.");
    assert_said(&found, "ok 2 for sure", Kind::Decision);
    let table = "| Worktop | Cost |\n|---|---|\n| **Premium laminate** | £600 |\n| **Quartz** | £2,500 |\n| **Solid oak** | £1,500 |";
    let found = reply_to(
        table,
        "Priya wants quartz. Dan says laminate is fine and the money should go on appliances. Laminate, then — a good stone-effect one.",
    );
    assert_said(&found, "Laminate, then", Kind::Decision);
    let budget = "Assigned:\n- Savings: £150\n- Clothes: £60\n- Buffer: £100";
    let found = reply_to(budget, "Savings: £200 a month. Can you make that work?");
    assert_said(&found, "Savings: £200 a month.", Kind::Decision);
    // The value as listed, a label not listed, or a number past nothing: no pick.
    for reply in ["Savings: £150 is fine.", "Holidays: £200 a month."] {
        let found = reply_to(budget, reply);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
}

#[test]
fn a_thing_set_anew_or_dropped_after_news_replaces_the_choice_it_names() {
    // A thing set anew that the decision it replaces never named.
    let found = read(&[
        ("user", "Help me write to my landlord."),
        (
            "assistant",
            "Options for the deadline:\n\n1. 7 days to start work.\n2. 14 days to start work.\n3. 28 days.",
        ),
        ("user", "Let's give him 14 days to start the work."),
        ("assistant", "Done."),
        (
            "user",
            "My sister says that's too polite. Change the deadline to 7 days to start the work.",
        ),
    ]);
    let old = said(&found, "14 days").expect("the first deadline");
    assert!(old.superseded.is_some(), "{found:?}");
    // What news before the override says it would rather not do replaces nothing: the
    // override's own sentence names what it drops.
    let found = read(&[
        ("user", "Help me with a handover template."),
        ("assistant", "ISBAR or SBAR?"),
        ("user", "Go w/ ISBAR."),
        ("assistant", "Done."),
        (
            "user",
            "Mgr meeting today. She wants us aligned now rather than retraining in 3 months. Scrap ISBAR, switch to I-PASS.",
        ),
    ]);
    assert_superseded(&found, "Go w/ ISBAR.");
    // What a document should now say.
    let found = read(&[
        ("user", "Help me with a recruitment flyer."),
        ("assistant", "What age range?"),
        ("user", "The age range on the flyer should read 45 to 75."),
        ("assistant", "Noted."),
        (
            "user",
            "The committee widened it. The flyer should now say 45 to 80.",
        ),
    ]);
    assert_superseded(&found, "45 to 75");
}

#[test]
fn shorthand_limits_exclusions_and_duties_said_gently_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "I'd be grateful if the printed programme used nothing smaller than 14-point type.",
            "So perhaps we ought not to rely on red versus green anywhere in the charts.",
            "24h clock only on the sheet, incl. the pre-printed bits.",
            "Celsius only.",
            "And just so you know, we're selling the car, so leave car shipping off the list entirely.",
            "Leave the sponsors out of it.",
        ],
    );
    assert_kind(
        None,
        &[
            "It only took a minute.",
            "That's only fair.",
            "There is nothing over 80,000 in the account yet.",
            "There's nothing over 80,000 in the account yet.",
            "Leave off at chapter 3.",
        ],
    );
}

#[test]
fn a_pick_by_letter_the_right_one_and_a_role_taken_for_sure_are_decisions() {
    let lettered = "Three ways:\n\n**A. Cost-plus.** Add a markup.\n\n**B. Competitor-anchored.** Price against the café.\n\n**C. Value.** Price on perceived value.";
    let found = reply_to(lettered, "B, but sanity-checked against my 65% floor.");
    assert_said(&found, "B, but sanity-checked", Kind::Decision);
    let bracketed = "Two block lengths:\n\n**(a) 16 wks**\n- Start mid-Aug.\n\n**(b) 18 wks**\n- Start early Aug.";
    let found = reply_to(
        bracketed,
        "(b), the 18-wk version. The foot's the priority.",
    );
    assert_said(&found, "(b), the 18-wk version.", Kind::Decision);
    // A letter the list does not have, or asked back: no pick.
    for reply in ["D, maybe.", "(b)?"] {
        let found = reply_to(bracketed, reply);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
    assert_kind(
        Some(Kind::Decision),
        &[
            "On balance, I think the second structure is the right one for us.",
            "Ok I'm definitely taking first speaker.",
        ],
    );
}

#[test]
fn a_thing_set_anew_takes_back_only_what_names_it_whole_or_sets_its_number() {
    let found = read(&[
        ("user", "Help me move the nightly pipeline."),
        (
            "assistant",
            "Cutover options:\n\nA) Big bang.\nB) Dual-run for two weeks.\nC) Shadow reads.",
        ),
        (
            "user",
            "B, two weeks of dual-run, compare outputs, then cut.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "Cron kicks off at 23:00 UTC today. Move the run window to 01:00 UTC.",
        ),
    ]);
    assert!(
        said(&found, "two weeks of dual-run").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

/// Each pair: an earlier decision, then a later message that replaces it; the earlier one
/// is read superseded.
fn assert_replaces(pairs: &[(&str, &str)]) {
    for (first, later) in pairs {
        let found = read(&[
            ("user", "Help me plan this."),
            ("assistant", "Sure."),
            ("user", first),
            ("assistant", "Noted."),
            ("user", later),
        ]);
        assert!(
            said(&found, first).is_some_and(|i| i.superseded.is_some()),
            "{first} -> {later}: {found:?}"
        );
    }
}

#[test]
fn what_a_decision_says_it_is_not_a_value_pointed_at_and_a_name_given_anew_replace() {
    assert_replaces(&[
        (
            "ok lets do 30 days from delivery for returns.",
            "been thinking tho. actually make it 21 days not 30.",
        ),
        (
            "she picked the dino dig!!!",
            "ok UPDATE. maya changed her mind AGAIN and now its space. so space theme, not dinos, sorry!!!",
        ),
        (
            "Let's do a minor release every six weeks, patch releases as needed.",
            "Make it every eight weeks.",
        ),
        ("So: **4 screens**, not 5.", "Final count: **3 screens**."),
        (
            "Set it at 3,200 kcal every day and we'll see how the scale moves.",
            "Bump it to 3,500 kcal a day.",
        ),
        (
            "I think we'll call it 'Songs for a Winter Evening', if that's all right.",
            "May we change the title to 'Light in Midwinter', please?",
        ),
        (
            "Let us call it The Apiary Bulletin.",
            "We shall call it Comb & Quill after all.",
        ),
        (
            "We're calling it the Tithe.",
            "Switching the name to Kindling.",
        ),
        (
            "Let's do B.",
            "Let's scrap B and open with the spreadsheet story instead.",
        ),
        (
            "Let's use the fishing story.",
            "Can we swap the fishing story for the bike one?",
        ),
    ]);
    // Not what it is not when nothing standing is it, nor "not sure".
    let found = read(&[
        ("user", "Help me plan this."),
        ("assistant", "Sure."),
        ("user", "Let's go with the oak table."),
        ("assistant", "Noted."),
        ("user", "Chairs in walnut, not sure about the stools."),
    ]);
    assert!(
        said(&found, "oak table").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn a_name_a_plan_on_a_number_a_value_set_or_moved_and_a_time_begun_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "We're calling it the Tithe.",
            "Let's plan on six chapters: introduction, methods, three studies, discussion.",
            "Let's go 2-3-1!",
            "So it's moving to Friday 16 May.",
            "baguette mix at 4:30 then.",
            "Set quorum at twenty-five Members present in person.",
            "Let's begin morning practice at 7:00.",
            "I'd like morning practice to begin at 7:15 instead, with tea in the hall from 6:45.",
            "Can we swap the fishing story for the bike one?",
        ],
    );
    assert_kind(
        None,
        &["See you at 5 then.", "Let's go 2 rounds of that then?"],
    );
    // A heading names what follows; it decides nothing.
    let found = read(&[
        ("user", "Help me with onboarding."),
        ("assistant", "How many screens?"),
        (
            "user",
            "### Screen count\nDesign is torn. Let's lock **5 screens** for now.",
        ),
    ]);
    assert!(said(&found, "### Screen count").is_none(), "{found:?}");
    // A pick by its place wanted later in the reply.
    let numbered =
        "Three cars:\n\n1. 2016 Civic, 96k.\n2. 2015 Mazda3, 88k.\n3. 2013 Corolla, 131k.";
    let found = reply_to(
        numbered,
        "omg it's automatic, phew. honestly the Mazda is nicer inside. I think I want number 2, the Mazda.",
    );
    assert_said(
        &found,
        "I think I want number 2, the Mazda.",
        Kind::Decision,
    );
}

#[test]
fn a_state_kept_a_need_of_someone_and_a_rule_after_its_reason_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "The brassicas stay netted from planting to harvest, because the pigeons are clever.",
            "the signature dish names stay in English, because people come for those names.",
            "Her name's Margaret, but everyone calls her Peggy, and she hates \"love\".",
            "He hates being called Bob.",
            "Mum is quite deaf in her left ear, so anyone who comes to the house needs to sit on her right.",
            "governors have asked that the policy not exceed eight pages, excluding appendices.",
        ],
    );
    assert_kind(
        None,
        &[
            "We stay at the Hilton.",
            "The kids stayed up late.",
            "EM/F1 stays as a smoke check for now.",
            "She hates the rain.",
        ],
    );
    // The rule kept with the reason it is said after.
    let found = read(&[(
        "user",
        "Marguerite is joining us, and she uses a wheelchair, so every session has to happen somewhere she can reach with ease.",
    )]);
    assert_said(
        &found,
        "Marguerite is joining us, and she uses a wheelchair, so every session",
        Kind::Rule,
    );
}

#[test]
fn picks_by_description_by_place_kept_or_after_an_opener_and_a_part_that_becomes_another() {
    let drafts = "Three openings:\n\n**A.** It starts in the shed, sawdust and oil.\n\n**B.** Forty years on the boats.\n\n**C.** A plain obituary.";
    let found = reply_to(
        drafts,
        "I like the one that starts in the shed. It feels like him.",
    );
    assert_said(
        &found,
        "I like the one that starts in the shed.",
        Kind::Decision,
    );
    let found = reply_to(drafts, "The boats one.");
    assert_said(&found, "The boats one.", Kind::Decision);
    // A description the options do not give picks nothing.
    let found = reply_to(drafts, "I like the one that my aunt wrote.");
    assert!(found.is_empty(), "{found:?}");
    let numbered =
        "Four ideas:\n\n1. Light colour.\n2. Music.\n3. Water amount.\n4. Soil type.\n\nWhich one?";
    let found = reply_to(numbered, "ooh number 1!!! the colours one!!");
    assert_said(&found, "ooh number 1!!! the colours one!!", Kind::Decision);
    let found = reply_to(
        numbered,
        "Hmm. Stay with the first: light colour, three filters.",
    );
    assert_said(&found, "Stay with the first", Kind::Decision);
    assert_kind(
        Some(Kind::Decision),
        &["Top terrace becomes the gravel seating area for evenings."],
    );
    assert_kind(None, &["It becomes a problem when it rains."]);
}

#[test]
fn a_plan_a_date_a_polite_switch_and_a_pick_by_label_replace_as_they_should() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Plan is free lumpia for the first 50 people in line.",
            "Start date is 24 August.",
            "Would it be possible to switch us to Option C instead, so that the final component is a paper?",
            "Let's plan on a new episode every two weeks, starting in September.",
            "actualy make it 8 stamps not 10, 10 feels like forever for students",
        ],
    );
    assert_kind(None, &["The time is 5pm now, I'm tired."]);
    assert_replaces(&[
        (
            "Option C. The client's product team thinks in journeys.",
            "Actually, switch the report to option B — organise by success criterion.",
        ),
        (
            "Hourly refresh it is.",
            "Can we change the refresh to every 15 minutes instead of hourly?",
        ),
        (
            "10 stamps for a free drink, decided.",
            "actualy make it 8 stamps not 10, 10 feels like forever for students",
        ),
    ]);
}

#[test]
fn a_fragment_on_the_same_line_says_more_of_the_instruction_before_it() {
    let found = read(&[(
        "user",
        "1. Mac.\n2. Under $1,800 all in. Hard limit.\n3. So no, back to plain table salt. Non-iodized. Thanks!",
    )]);
    let texts: Vec<&str> = found.iter().map(|i| i.text.as_str()).collect();
    assert!(
        texts.contains(&"Under $1,800 all in. Hard limit."),
        "{found:?}"
    );
    assert!(
        texts.contains(&"So no, back to plain table salt. Non-iodized."),
        "{found:?}"
    );
    // Not across lines.
    let found = read(&[("user", "Under $1,800 all in.\nHard limit.")]);
    assert_eq!(found[0].text, "Under $1,800 all in.", "{found:?}");
}

#[test]
fn what_is_done_after_the_reasons_is_an_instruction() {
    let found = read(&[(
        "user",
        "The budget says DJ, my gut says band. For a gala, I think live music makes it feel like an occasion, so book The Late Shift. We'll find the money elsewhere.",
    )]);
    assert!(
        found
            .iter()
            .any(|i| i.kind == Kind::Decision
                && i.text
                    == "For a gala, I think live music makes it feel like an occasion, so book The Late Shift."),
        "{found:?}"
    );
    // What happened because of the reasons is no instruction.
    let found = read(&[(
        "user",
        "Long week here. It rained every day, so we stayed in and watched films.",
    )]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_title_s_dot_ends_no_sentence() {
    assert_eq!(
        line_sentences(
            "for Ms. Alvarez I'll just chip in $20 to Jenna's group gift. Dr. Okafor gets a card."
        ),
        [
            "for Ms. Alvarez I'll just chip in $20 to Jenna's group gift.",
            "Dr. Okafor gets a card."
        ]
    );
    let found = read(&[
        ("user", "Help me with teacher gifts."),
        (
            "assistant",
            "A gift card, a group gift or something homemade.",
        ),
        (
            "user",
            "the gift question is settled. we're going with Dr. Patel's bakery for the cookies",
        ),
    ]);
    assert!(
        found
            .iter()
            .any(|i| i.text == "we're going with Dr. Patel's bakery for the cookies"),
        "{found:?}"
    );
}

#[test]
fn a_sentence_ends_after_the_quote_it_closes_and_not_inside_brackets() {
    assert_eq!(
        line_sentences(
            "\"The sea gives... and sometimes, it bargains.\" Going with 2, the hag coven."
        ),
        [
            "\"The sea gives... and sometimes, it bargains.\"",
            "Going with 2, the hag coven."
        ]
    );
    assert_eq!(
        line_sentences(
            "Option 2 for sure (we have a meteorite! a tiny one). And no rain date (see above.) Thanks"
        ),
        [
            "Option 2 for sure (we have a meteorite! a tiny one).",
            "And no rain date (see above.)",
            "Thanks"
        ]
    );
    assert_eq!(
        line_sentences("Present tense — she kept asking \"and now what?\" as if it were now."),
        ["Present tense — she kept asking \"and now what?\" as if it were now."]
    );
    // The speech is not the user's words, the order after it is; a lone inch mark opens
    // no quotation.
    let found = read(&[
        ("user", "Help me prep my D&D campaign."),
        ("assistant", "Who runs the inn?"),
        (
            "user",
            "\"Rooms are two silver. The stew is free. The questions cost extra.\" And when you write NPCs up for me, keep every intro to three sentences max.",
        ),
    ]);
    assert!(
        found
            .iter()
            .all(|i| !i.text.starts_with("The stew") && !i.text.starts_with("The questions")),
        "{found:?}"
    );
    assert_said(
        &found,
        "keep every intro to three sentences max.",
        Kind::Rule,
    );
    assert_eq!(
        sentences("Fit the 12\" pipe. Never glue the joints."),
        ["Fit the 12\" pipe.", "Never glue the joints."]
    );
}

#[test]
fn emoji_close_a_sentence_or_end_one_before_a_capital() {
    assert_eq!(
        line_sentences("by category please!! 🎁 people always ask where the pamper stuff is 😂"),
        [
            "by category please!! 🎁",
            "people always ask where the pamper stuff is 😂"
        ]
    );
    assert_eq!(
        line_sentences(
            "Reserve prices never go in the printed catalogue, they're only for us 🤫 Last year we had none 😭 What reserves should we set?"
        ),
        [
            "Reserve prices never go in the printed catalogue, they're only for us 🤫",
            "Last year we had none 😭",
            "What reserves should we set?"
        ]
    );
    // An emoji that opens a line or sits inside a sentence ends nothing.
    assert_eq!(
        line_sentences("🎉 Party time. the cake 🎂 is ready"),
        ["🎉 Party time.", "the cake 🎂 is ready"]
    );
    // The rule before the emoji is read, not lost in the question after it.
    let found = read(&[
        ("user", "Help me write our charity auction catalogue."),
        ("assistant", "Happy to. How many lots?"),
        (
            "user",
            "ok so reserves. Reserve prices never go in the printed catalogue, they're only for us on the bid sheets 🤫 Last year we had no reserves at all 😭 What reserves should we set?",
        ),
    ]);
    assert!(
        found.iter().any(|i| i.kind == Kind::Rule
            && i.text.contains("Reserve prices never go in the printed catalogue, they're only for us on the bid sheets 🤫")),
        "{found:?}"
    );
}

#[test]
fn a_topic_label_a_judgement_and_what_happened_are_no_instructions() {
    let answer = "Ask her about the dues, the race director's receipts, the bylaws and the other thing you mentioned.";
    for reply in [
        "dues question. they're $30 a year for individuals.",
        "other thing, the old treasurer had people venmo her personally last year.",
        "our race director is the worst at it",
    ] {
        let found = read(&[
            ("user", "I'm the new treasurer of our running club."),
            ("assistant", answer),
            ("user", reply),
        ]);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
    assert_kind(None, &["didn't always do lol.", "wasn't always on time"]);
    // A trailing-off goes on in the same sentence; what the bylaws say binds.
    assert_eq!(
        line_sentences(
            "the bylaws say any payment over $250 needs sign-off, which she... didn't always do lol."
        ),
        ["the bylaws say any payment over $250 needs sign-off, which she... didn't always do lol."]
    );
    assert_kind(
        Some(Kind::Rule),
        &["the bylaws say any payment over $250 needs sign-off from two board members"],
    );
}

#[test]
fn news_of_a_things_condition_settles_nothing() {
    let answer = "Point the two Ingresses at the staging issuer, then follow the challenge and the build if something gets stuck.";
    for reply in [
        "the challenge is stuck pending. `Waiting for DNS-01 challenge propagation`",
        "the build is red again",
    ] {
        let found = read(&[
            ("user", "Set up certs for the internal services."),
            ("assistant", answer),
            ("user", reply),
        ]);
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
    // What the thing is to be still settles it.
    let found = read(&[
        ("user", "Set up certs for the internal services."),
        ("assistant", answer),
        ("user", "the issuer is letsencrypt-dns from now on"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn what_a_thing_of_the_work_may_never_do_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "comments can't block writes for more than a few seconds, it's the busiest table we have",
            "the POST /charges contract can't break for old clients",
            "the model can never be retrained automatically",
            "any change to the SecurityFilterChain config needs a sign-off from the security team",
            "the RTO for orders is 1 hour",
        ],
    );
    assert_kind(
        None,
        &[
            "the app can't connect to the db",
            "the build can't find the module",
            "the RTO was 3 hours in the last drill",
        ],
    );
}
#[test]
fn a_thing_set_anew_replaces_the_decision_that_named_it() {
    let gone = superseded(&[
        ("user", "Help me organize a charity 5K."),
        ("assistant", "Happy to."),
        ("user", "Let's hold the race on April 27."),
        ("assistant", "Noted."),
        ("user", "We'll do chip timing through Pacesetter."),
        ("assistant", "Good."),
        (
            "user",
            "moving the race to May 4 because the park is booked on the 27th",
        ),
    ]);
    assert_eq!(gone, vec!["Let's hold the race on April 27.".to_owned()]);
    // A move that names nothing decided replaces nothing.
    let gone = superseded(&[
        ("user", "Help me organize a charity 5K."),
        ("assistant", "Happy to."),
        ("user", "Let's hold the race on April 27."),
        ("assistant", "Noted."),
        ("user", "we'll move staging to a single AZ"),
    ]);
    assert!(gone.is_empty(), "{gone:?}");
    // The override's own sentence tells what it replaces, not the news before it.
    let gone = superseded(&[
        ("user", "Our water heater is leaking, what should we get?"),
        ("assistant", "A 40 or 50 gallon tank?"),
        ("user", "going with a 50 gallon gas tank"),
        ("assistant", "Good."),
        (
            "user",
            "hiring Ortiz Plumbing, they quoted 2150 with a bradford white",
        ),
        ("assistant", "Sounds fair."),
        (
            "user",
            "Ortiz called, the 50 gal wont fit through the closet door. we're doing a 40 gallon high-recovery unit instead, same price",
        ),
    ]);
    assert_eq!(gone, vec!["going with a 50 gallon gas tank".to_owned()]);
}

#[test]
fn names_settings_values_and_days_given_are_decisions_and_a_hurried_lets_is_read() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Use Postgres.",
            "Call them Nell and Ruth.",
            "Title it Thirty-Five Miles an Hour.",
            "Address it to Ms. Okafor, she's named in the posting.",
            "set it in the kitchen",
            "Leave salary out entirely.",
            "include one line for Sam's dad, Graham",
            "Take the villa near Trogir instead",
            "make the hake 170 g",
            "Make the session timeout 15 minutes",
            "make it eight books, we skip summer",
            "soft open is now Thursday June 19",
            "the launch moves to Tuesday 6 May",
            "We train Tuesday and Thursday, 18:00 to 19:30",
            "we start on Monday 22 September, still 12 weeks",
            "We're sending on Sunday mornings.",
            "the grey porcelain 12x24 looks nice, lets do that for the floor",
            "Agreed, use the quote from Hannah at Fern & Loom.",
            "Okay, open with Small Things Like These instead - it's set at Christmas anyway.",
            "Okay, back to three days, but Tuesday Thursday Saturday this time.",
            "the city pushed the repaving to January, so we're back at St. Paul's.",
            "So we're in a 10x30 inline now, three sides closed, still on a decent aisle.",
            "So we're painting it white instead, with a matte finish.",
        ],
    );
    assert_kind(
        None,
        &[
            "take the time to read it",
            "back to the question of the budget",
            "we're back to normal now",
            "call him tomorrow",
            "make the intro shorter",
            "we meet on Tuesdays usually",
            "the meeting is now on Zoom",
            "the app lets do anything you want",
        ],
    );
}

#[test]
fn an_override_takes_back_a_choice_its_subject_names_not_one_its_reasons_touch() {
    // "birch" is a word of the reason ("the pale birch look"), not of what the finish
    // is: the plywood stands.
    let found = read(&[
        ("user", "Let's build the bookshelf from pine boards."),
        ("assistant", "Pine is cheap and easy to work."),
        ("user", "Actually, let's do birch plywood instead."),
        (
            "assistant",
            "Birch plywood is stable and takes a finish well.",
        ),
        ("user", "I'll go with the dark walnut stain."),
        ("assistant", "Walnut will darken the birch a lot."),
        (
            "user",
            "So change of plan, clear polyurethane only, I actually like the pale birch look.",
        ),
    ]);
    assert!(
        said(&found, "birch plywood")
            .expect("read")
            .superseded
            .is_none(),
        "{found:#?}"
    );
    assert!(
        said(&found, "pine boards")
            .expect("read")
            .superseded
            .is_some(),
        "{found:#?}"
    );
}

#[test]
fn a_rule_after_a_dash_asked_as_a_favour_or_a_count_no_one_passes() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Oh, one thing I forgot - don't include anything with graphic violence.",
            "Also, for the email and all other copy, write dates like 8 April, not April 8.",
            "Can you give me grocery quantities in grams from now on?",
            "Okay also, sorry, a small ask: can you keep your replies under 150 words?",
            "so can you always tell me what a command does before I paste it.",
            "so not more than 12,000 steps per day for her.",
            "And nobody on the team does more than three interviews a week; they have work.",
        ],
    );
    assert_kind(
        None,
        &[
            "can you book the 9:40 train?",
            "so can you book the 9:40 train.",
            "Can you give me a list of hotels?",
            "could you explain that again?",
            "Could you give me eight or ten tagline options that work across all three segments?",
            "Could you revise the timeline accordingly, and flag anything that now has slack?",
            "it takes no more than 5 minutes",
            "not more than I expected",
            "Kate will be so smug.",
            "I'm not proposing it yet, I'm just curious how it would compare with more social.",
            "I am thinking perhaps four or five emails, but I would welcome your view.",
            "That's a thorough list, so I will raise it with finance.",
            "I'll take that to our PR contractor.",
            "Renting a 20-foot truck: about $2,400 plus gas.",
            "Now the 2FA setup for staff.",
            "last q: anything about the border crossing Calafate to Natales we should know",
            "I need to remember to email our agency contact this afternoon, rather than you.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["I'll take the 9:40 train.", "ok lets do the walk in shower"],
    );
}

#[test]
fn an_alternative_named_takes_back_a_choice_not_a_rule_nor_what_chose_it_already() {
    let found = read(&[
        ("user", "Help me plan my week of lunches."),
        ("assistant", "Burrito bowls or orzo both keep well."),
        ("user", "We'll do burrito bowls for lunches."),
        ("assistant", "Great, bowls it is."),
        (
            "user",
            "Every chart needs a takeaway title, even on a slide in the deck.",
        ),
        ("assistant", "Understood."),
        (
            "user",
            "So scratch the burrito bowls, let's do the Greek chicken orzo instead.",
        ),
        ("assistant", "Orzo it is."),
        (
            "user",
            "Updated grocery list please, all three recipes with the orzo instead of the bowls.",
        ),
        ("assistant", "Here it is."),
        (
            "user",
            "We'll deliver a written memo instead of the slide deck.",
        ),
    ]);
    assert!(
        said(&found, "burrito bowls for lunches")
            .expect("read")
            .superseded
            .is_some(),
        "{found:#?}"
    );
    assert!(
        said(&found, "chicken orzo")
            .expect("read")
            .superseded
            .is_none(),
        "{found:#?}"
    );
    assert!(
        said(&found, "takeaway title")
            .expect("read")
            .superseded
            .is_none(),
        "{found:#?}"
    );
}

#[test]
fn an_override_takes_back_the_choice_picked_from_the_same_options() {
    let found = read(&[
        ("user", "Help me build a bookshelf for the living room."),
        (
            "assistant",
            "Boards: pine boards or birch plywood, each sealed with a clear coat?",
        ),
        ("user", "Let's use pine boards."),
        ("assistant", "Pine is cheap and easy to cut."),
        ("user", "Actually, let's do birch plywood instead."),
        (
            "assistant",
            "Finish: a dark walnut stain or a clear coat of polyurethane?",
        ),
        ("user", "I'll go with the dark walnut stain."),
        ("assistant", "Walnut will darken the birch plywood a lot."),
        (
            "user",
            "So change of plan, clear polyurethane only, I actually like the pale birch look.",
        ),
    ]);
    assert!(
        said(&found, "birch plywood instead")
            .expect("read")
            .superseded
            .is_none(),
        "{found:#?}"
    );
    assert!(
        said(&found, "walnut stain")
            .expect("read")
            .superseded
            .is_some(),
        "{found:#?}"
    );
}

#[test]
fn a_saying_of_someone_else_is_no_rule_but_a_relayed_order_is() {
    assert_kind(
        None,
        &[
            "My boss at my old agency always said never send a reminder on a Monday morning.",
            "My boss always says never ship on Fridays, but I don't care.",
            "My cofounder Lea says cron is always the answer, but I'm not sure she's right here.",
            "Lea said we should use cron, but I'm not convinced.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &[
            "My supervisor said keep the survey under 15 minutes.",
            "The client says no jokes about religion.",
        ],
    );
}

#[test]
fn a_pick_by_label_replaces_the_pick_from_the_same_list() {
    let turns = [
        (
            "user",
            "Background work: (A) a cron job, (B) a managed queue like SQS, or (C) a Postgres \
             job table.",
        ),
        (
            "assistant",
            "All three can work at your volume.\n\nC - Postgres job table (procrastinate or \
             similar). Jobs live in the same database, so enqueuing can happen in the same \
             transaction as the invoice change.",
        ),
        ("user", "We'll go with option B, the managed queue."),
        ("assistant", "Good. Postmark or SES for the invoice emails?"),
        (
            "user",
            "Let's use Postmark for the outgoing invoice emails.",
        ),
        (
            "assistant",
            "With B you would still need a scheduler for reminders.",
        ),
        (
            "user",
            "That's a lot of moving parts for 80 invoices a month. Let's go with C instead, \
             the Postgres job table. Enqueueing happens in the same transaction as the \
             invoice change.",
        ),
    ];
    assert_eq!(
        superseded(&turns),
        ["We'll go with option B, the managed queue."]
    );
    assert_eq!(picked_label("Option 2 it is."), Some("2".to_owned()));
    assert_eq!(picked_label("I'll go with a blue one."), None);
}

#[test]
fn limits_said_as_labels_inabilities_and_formats_for_a_class_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "One principle for this: raw data lands untouched, all cleaning happens downstream.",
            "Constraint: the API stays backwards compatible.",
            "Injury-wise: I can't do squats or lunges - left knee, old skiing injury.",
            "can you give all times in 24 hour format btw, our engineer gets confused by am/pm.",
            "could you write every email in British English?",
        ],
    );
    assert_kind(
        None,
        &[
            "The rule they broke was: nobody merges on Friday.",
            "I can't do math anymore today.",
            "I can't do it today.",
            "Can you put all the options in a table?",
        ],
    );
}

#[test]
fn an_order_after_the_thing_it_is_for_is_read() {
    assert_eq!(
        kind_of("Actually for the candles make it 8 not 5, they fly off the shelves."),
        Some(Kind::Decision)
    );
    assert_eq!(kind_of("for the venue use the barn"), Some(Kind::Decision));
    assert_eq!(
        kind_of("For the Q3 report, use the new template."),
        Some(Kind::Decision)
    );
    assert_kind(
        None,
        &[
            "For what it's worth, I like it.",
            "For dinner we had pasta.",
        ],
    );
}

#[test]
fn a_part_moved_to_a_month_and_a_switch_made_by_others_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "The pilot moves to April, with main fieldwork from May.",
            "so they switched to heather gray, same design.",
            "Ok, we keep everything in one sheet with a column for category.",
            "Launch is at the spring gala on May 16, where we hand out printed copies.",
        ],
    );
    assert_kind(
        None,
        &[
            "My sister moves to April's place next week.",
            "They switched to Linux years ago.",
            "Our statistician is on leave until Tuesday.",
            "The build is on fire since Monday.",
        ],
    );
}

#[test]
fn an_order_for_each_time_and_a_stressed_refusal_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "And when you give me numbers, quote prices before tax and delivery.",
            "whenever you touch the schema, add a migration.",
            "I really don't want any of the old URLs to break.",
        ],
    );
    assert_kind(
        None,
        &[
            "When you get a chance, send me the draft.",
            "When you said Postgres, did you mean RDS?",
        ],
    );
}

#[test]
fn a_pick_by_label_or_place_and_a_person_placed_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Option B for the GCSE option blocks - it keeps triple science separate.",
            "So apply for C, the garden-level one near Federal.",
            "OK, the Crane at 5 coins instead, that's the middle ground.",
            "put Ravi at table 3, he knows Hannah's boyfriend Chris",
            "so seat Aunt May next to the door",
        ],
    );
    assert_kind(
        None,
        &[
            "Option B is cheaper but slower.",
            "The first one was better.",
            "I feel like a proper landlord now rather than someone who just ignores texts.",
            "Dan's uni friends all go at table 7, all nine of them.",
        ],
    );
}

#[test]
fn bounds_on_a_class_and_settled_statements_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "and also nobody on less than 13.50 an hour, including the kp.",
            "I'd say nothing over 80,000 miles, I want this to last us like 8 years.",
            "In fact, customer emails and phone numbers stay out of the feature tables, full stop.",
            "Also, the runbook should use role names, not people's names.",
            "Can you keep the messages to tenants short and friendly, no legal jargon - she doesn't need it.",
        ],
    );
    assert_kind(
        None,
        &[
            "Oh god no.",
            "hell no.",
            "cheers for all this, feel way more on top of it",
            "Nobody bought the Crane at 6.",
            "you should use tabs, not spaces, in my opinion",
        ],
    );
}

#[test]
fn a_part_settled_anew_with_then_replaces_the_choice_that_named_it() {
    let found = read(&[
        ("user", "Help me build a CLI."),
        ("assistant", "Sure. What should the config hold?"),
        (
            "user",
            "Project name, DB url, excluded tables. We'll keep the config file in TOML, .dbsnap.toml in the repo root.",
        ),
        ("assistant", "Done. Next, the create command?"),
        (
            "user",
            "For create, we'll use pg_dump custom format and write a metadata file.",
        ),
        (
            "assistant",
            "tomllib is not in Python 3.8; tomli would have to be vendored.",
        ),
        (
            "user",
            "Right, tomli. Ok, config file is INI via configparser then, .dbsnap.ini. Ugly but stdlib.",
        ),
    ]);
    let toml = found
        .iter()
        .find(|i| i.text.contains("TOML"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(toml.superseded.is_some(), "{found:?}");
    let create = found
        .iter()
        .find(|i| i.text.contains("pg_dump"))
        .expect("read");
    assert!(create.superseded.is_none(), "{found:?}");
    assert!(
        found.iter().any(|i| i.text.contains("INI") && i.overrides),
        "{found:?}"
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "fine, give it to priya then, she was a close second anyway",
            "SQLite then.",
        ],
    );
    assert_kind(None, &["that is fine then", "give it to me straight"]);
}

#[test]
fn a_part_named_as_replaced_takes_back_the_choice_whose_text_names_more_of_it() {
    // Each shares one word of its sentences with "config file"; the first names both in
    // its whole text.
    let texts = [
        "Config: project name, DB url, excluded tables. Config file in TOML, .dbsnap.toml in the repo root.",
        "create command: pg_dump custom format, with the excludes and the metadata file.",
    ];
    let said = ["Config: project name, DB url, excluded tables.", texts[1]];
    let mut found: Vec<Instruction> = texts
        .iter()
        .enumerate()
        .map(|(message, text)| Instruction {
            kind: Kind::Decision,
            text: (*text).to_owned(),
            overrides: false,
            replaced: None,
            superseded: None,
            message,
        })
        .collect();
    let words: Vec<Words> = texts
        .iter()
        .zip(said)
        .map(|(text, said)| Words::read(text, Vec::new(), said, None))
        .collect();
    let named = subject_words("config file");
    let taken = take_back_named(
        &mut found,
        &words,
        (&named, "config file is INI then"),
        Kind::Decision,
        2,
        Some(&[]),
    );
    assert_eq!(taken, Some(0), "{found:?}");
}

#[test]
fn a_name_given_anew_replaces_the_name_chosen_before() {
    let found = read(&[
        ("user", "Help me write a grant for our community project."),
        ("assistant", "Happy to. What is the project called?"),
        (
            "user",
            "Let's call it Digital Front Porch, because that's where people in this town talk.",
        ),
        ("assistant", "Great name. Next, the budget."),
        (
            "user",
            "The board voted on the name and it's \"Connected at Any Age\" now - they thought Digital Front Porch sounded too cute.",
        ),
    ]);
    let old = found
        .iter()
        .find(|i| i.text.starts_with("Let's call it"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(old.superseded.is_some(), "{found:?}");
    assert_kind(None, &["she said \"it's fine\" now and then"]);
}

#[test]
fn an_option_gone_with_then_flipped_is_replaced() {
    let listed = "The W can be done in either direction:\n\n**West to east (start at Paine Grande, end at Base Torres)**\n- Pros: finish with the towers\n\n**East to west (start at Central, end at Paine Grande)**\n- Pros: hardest climb on fresh legs";
    let found = read(&[
        ("user", "Plan our Patagonia trek."),
        ("assistant", listed),
        (
            "user",
            "- go west to east, want to end at the towers\n- refugio options for that?",
        ),
        (
            "assistant",
            "Chileno and Central are the refugios on the east side.",
        ),
        (
            "user",
            "- Chileno full Feb 20 going west to east\n- so: flip it. east to west, start at Torres",
        ),
    ]);
    let gone = found
        .iter()
        .find(|i| i.text.contains("go west to east"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(gone.superseded.is_some(), "{found:?}");
    assert!(
        found
            .iter()
            .any(|i| i.text.contains("east to west, start at Torres") && i.overrides),
        "{found:?}"
    );
}

#[test]
fn a_passage_replaced_in_the_draft_takes_no_choice_back() {
    let found = read(&[
        ("user", "Help me write the launch announcement."),
        ("assistant", "Sure. When is the launch?"),
        (
            "user",
            "The partners asked for a date, so let's lock in April 14 as the launch date.",
        ),
        (
            "assistant",
            "Here is a draft: ... Launching soon, as always, with love.",
        ),
        (
            "user",
            "Please replace that line with something that stands on its own.",
        ),
    ]);
    let date = found
        .iter()
        .find(|i| i.text.contains("April 14"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(date.superseded.is_none(), "{found:?}");
    assert_eq!(
        kind_of("replace Postgres with SQLite"),
        Some(Kind::Decision)
    );
}

#[test]
fn a_value_replaced_and_a_meal_cooked_from_scratch_take_back_only_what_they_name() {
    let found = read(&[
        ("user", "Help me build a revenue model."),
        ("assistant", "What granularity?"),
        (
            "user",
            "Monthly granularity for 36 months, starting January 2025.",
        ),
        ("assistant", "Done. Churn?"),
        (
            "user",
            "Use 1.8% monthly churn for all plans instead of 2.5%, the CFO wants one number.",
        ),
    ]);
    let monthly = found
        .iter()
        .find(|i| i.text.starts_with("Monthly granularity"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(monthly.superseded.is_none(), "{found:?}");
    assert!(!is_override(
        "I'd rather not cook from scratch every single night because I have choir."
    ));
    assert!(is_override("scratch the galette, we'll do a lemon tart"));
}

#[test]
fn a_thing_left_out_for_good_a_part_given_its_role_and_a_ban_after_a_verdict_are_read() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "ok so skip zucchini entirely, nobody here eats it.",
            "For the final test, hold out Jan to Jun 2024 as the test period.",
        ],
    );
    assert_eq!(
        kind_of("Good content, but no first person in the Methods section."),
        Some(Kind::Rule)
    );
    assert_kind(
        None,
        &[
            "a rough premise but no structure",
            "we have the budget but no time in the schedule",
        ],
    );
}

#[test]
fn the_same_choice_said_again_with_other_values_replaces_it() {
    let found = read(&[
        (
            "user",
            "Help me plan the season for my under-10s football team.",
        ),
        ("assistant", "Happy to. When do you train?"),
        (
            "user",
            "We train Tuesday and Thursday, 18:00 to 19:30, on half of the big field. We meet the parents at 18:00 on the first Monday.",
        ),
        ("assistant", "Noted. What about matches?"),
        (
            "user",
            "Problem. The club says the seniors take the field on Thursday. So we train Tuesday and Friday, 17:45 to 19:15, from 3 October.",
        ),
    ]);
    let old = found
        .iter()
        .find(|i| i.text.contains("Thursday, 18:00"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(old.superseded.is_some(), "{found:?}");
    if let Some(meeting) = found.iter().find(|i| i.text.starts_with("We meet")) {
        assert!(meeting.superseded.is_none(), "{found:?}");
    }
}

#[test]
fn a_pick_after_agreement_or_by_its_number_is_a_decision() {
    let listed = "Three realistic options:\n\n1. **Compute on read.** `SUM(qty)` over movements per item at query time.\n2. **Materialize on write.** Keep `stock_levels` and update it in the same transaction.\n3. **Async projection.** Movements go to a log and a consumer builds stock.\n\nFor people who look at a screen, I'd pick 2.";
    let found = read(&[
        ("user", "Design the stock API with me."),
        ("assistant", listed),
        (
            "user",
            "yeah, materialize on write, movements stay the source of truth. That's what I had in my head anyway.",
        ),
    ]);
    assert!(said(&found, "materialize on write").is_some(), "{found:?}");
    // A table's numbered rows are options too; the pick names its number first.
    let table = "| Contractor | Bid |\n|---|---|\n| 1. Bright Home | 52,000 |\n| 2. Meyer | 39,500 |\n| 3. Kowalski | 41,800 |\n\nKowalski is the stronger bid.";
    let found = read(&[
        ("user", "Help me pick a contractor for the kitchen."),
        ("assistant", table),
        (
            "user",
            "3, Kowalski, their references were glowing and they didn't try to upsell us on the wall. We'll wait the six weeks.",
        ),
    ]);
    assert!(said(&found, "3, Kowalski").is_some(), "{found:?}");
    // A reaction names no option, and a number past the options picks none.
    let found = read(&[
        ("user", "Design the stock API with me."),
        ("assistant", listed),
        (
            "user",
            "love the write-up, materialize on write sounds heavy though.",
        ),
        ("assistant", listed),
        ("user", "7, that's how many services read it today."),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn shorthand_orders_and_requirements_are_read() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "bump it to SEV1, customer money was affected.",
            "do it stepwise: 4.0, then 4.1, then 4.2, one production deploy each.",
            "so let's have Dev take the Tuesday physio runs, he'll be thrilled.",
            "Outside, install and freight come from the construction budget.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &["And the 3.9 stuff matters a lot: py3.8 compat required, the build agents are CentOS 7."],
    );
    assert_kind(
        None,
        &[
            "let's have a look at the logs first.",
            "Nothing more required.",
            "do it again, the output was cut off.",
            "We do maybe 2M movements a day across all sites.",
            "Where does the money for the trip come from?",
        ],
    );
}

#[test]
fn a_change_that_came_and_was_taken_replaces_the_choice() {
    let found = read(&[
        ("user", "Help me keep my mum's appointments straight."),
        (
            "assistant",
            "The eye clinic offers the 9th at 9:15, the 9th at 14:00 or the 16th at 10:40.",
        ),
        ("user", "2 for the eye clinic, the 9th at 14:00 works."),
        ("assistant", "Done, the 9th at 14:00 is in the calendar."),
        (
            "user",
            "the clinic called, they moved her to the 16th at 10:40 because the consultant's off on the 9th, so that's the date now. honestly",
        ),
        ("assistant", "Updated to the 16th at 10:40."),
        (
            "user",
            "ugh, the eye clinic again, the 16th is cancelled too, and she's now on the 23rd at 11:15, which I've accepted because I'm not going round this a third time.",
        ),
    ]);
    let first = said(&found, "the 9th at 14:00 works").unwrap_or_else(|| panic!("{found:?}"));
    let second = said(&found, "so that's the date now").unwrap_or_else(|| panic!("{found:?}"));
    let newest = said(&found, "now on the 23rd").unwrap_or_else(|| panic!("{found:?}"));
    assert!(
        first.superseded.is_some() && second.superseded.is_some(),
        "{found:?}"
    );
    assert!(newest.superseded.is_none() && newest.overrides, "{found:?}");
    assert_kind(Some(Kind::Decision), &["Friday at 6 it is now."]);
    assert_kind(None, &["that's the problem now, isn't it."]);
}

#[test]
fn what_is_dropped_and_what_takes_its_place_are_one_choice() {
    let found = read(&[
        ("user", "Help me draft the postmortem."),
        ("assistant", "Here is a draft with one root cause section."),
        (
            "user",
            "go with the config drift explanation as the root cause, one clear sentence.",
        ),
        ("assistant", "Done: the root cause is config drift."),
        (
            "user",
            "ok scrap the single root cause. list contributing factors instead, no \"root cause\" heading at all. The config drift alone didn't double-charge anyone; it took the drift plus the idempotency keys living in a cache plus the restart during a backlog.",
        ),
    ]);
    let newest = said(
        &found,
        "scrap the single root cause. list contributing factors instead",
    )
    .unwrap_or_else(|| panic!("{found:?}"));
    assert!(newest.overrides, "{found:?}");
    assert_superseded(&found, "config drift");
}

#[test]
fn a_count_in_words_a_standing_favour_and_a_form_asked_everywhere_are_instructions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Make it nine episodes with a bonus listener Q&A at the end.",
            "ok make it twelve tables then",
        ],
    );
    assert_kind(None, &["make it shorter", "Make it work."]);
    assert_kind(
        Some(Kind::Rule),
        &[
            "Also, from now on could you write dates out like 6 March, not 3/6 or anything numeric?",
            "Oh, and British spellings everywhere please, the Trust is very old-school.",
        ],
    );
    assert_kind(
        None,
        &[
            "Could you write the dates out for me?",
            "moon rock dig in the garage = sand everywhere tho",
            "The machine output was terrible, wrong legal terms everywhere, I rewrote almost everything.",
        ],
    );
}

#[test]
fn a_part_given_to_a_person_and_a_choice_announced_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Sana handles the inspection data, she's our data reporter.",
            "So Dev leads the morning shift, and I'll need someone for the afternoon.",
            "So we've changed it: £10 full price and under 16s free.",
            "We've settled this as a team, so you can take it as fixed: two supervised sessions a week for 12 weeks.",
            "So: a three-year project starting 1 October 2025, which gives us a winter to select sites.",
            "File the public records request with the state health department this week.",
            "We lead with the Riverside Court story: one home, one resident, two inspections.",
            "I take this.",
        ],
    );
    assert_kind(
        None,
        &[
            "Postgres handles the load fine.",
            "Crestline owns 22 homes in the state.",
            "So: we need to talk about the budget.",
            "I take it you're busy this week.",
        ],
    );
    // An agreed rule stays a rule.
    assert_kind(
        Some(Kind::Rule),
        &["Also we agreed on the call: no alcohol at any official event."],
    );
}

#[test]
fn an_instruction_that_points_back_keeps_what_it_points_at() {
    let found = read(&[
        ("user", "Help me price my wedding photography packages."),
        ("assistant", "Here are three tiers you could offer."),
        (
            "user",
            "Free travel within 50 miles. Now write me the package descriptions. Keep each one under 80 words.",
        ),
    ]);
    assert_said(
        &found,
        "Now write me the package descriptions. Keep each one under 80 words.",
        Kind::Rule,
    );
    let found = read(&[
        ("user", "Help me set up my photography packages."),
        ("assistant", "Two or three tiers both work."),
        (
            "user",
            "Structure looks right. Go with three tiers. Call them Essential, Classic and Heirloom. One thing: don't use the word \"cheap\" anywhere.",
        ),
    ]);
    assert_said(
        &found,
        "Go with three tiers. Call them Essential, Classic and Heirloom.",
        Kind::Decision,
    );
    let found = reply_to(
        "Three villains could work: the smuggler, Edric Vane and the drowned daughter, or the lighthouse keeper.",
        "Yes, Edric Vane and the drowned daughter, perfect. I take this. Before session 0, the organisation: we all have jobs.",
    );
    assert_said(
        &found,
        "Edric Vane and the drowned daughter, perfect. I take this.",
        Kind::Decision,
    );
}

#[test]
fn shares_compared_and_hedges_are_no_instructions() {
    assert_kind(
        None,
        &[
            "Of their penalties, 61% were reduced on dispute, compared with 24% for all other operators combined.",
            "Maybe it is.",
            "Yeah, it is.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["The Lumiares Hotel it is.", "Ardour it is, then."],
    );
    assert_kind(Some(Kind::Rule), &["Keep churn under 5% every month."]);
}

#[test]
fn wants_for_a_whole_class_a_request_to_refrain_and_an_important_label_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "i want every parent letter at a 6th grade reading level, we have a lot of ESL families",
            "I would ask you to refrain from using the word 'stakeholder' in anything public-facing.",
            "Important: the insurance values you mention always in euros, not in pounds or dollars.",
            "important: we collect nothing beyond name, phone, email and emergency contact at sign-up.",
            "And third, please answer me with short sentences, my English is not so strong.",
            "I'm not against it but I don't want MLflow to become the source of truth instead of the parquet files.",
        ],
    );
    assert_kind(
        None,
        &[
            "I want a coffee.",
            "Could you answer the email from Sam?",
            "Good guy clause, explain in two sentences.",
            "Important thing I forgot: the neighbours made complaint to council about noise.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "so change it: disable after 5 days of continuous failure, with a warning email on day 1.",
            "Ok we convert the five biggest models to incremental, fct_events first.",
        ],
    );
    let found = reply_to(
        "Two delivery models: all in-house, or a vendor for part of it.",
        "Right, the delivery model: outsource the newspapers to a vendor and do the photographs in-house.",
    );
    assert_said(&found, "outsource the newspapers", Kind::Decision);
}

#[test]
fn short_answers_limits_said_with_not_accepted_labels_and_shall_are_read() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Please write me short answers, I read on my phone.",
            "I can study not more than 45 minutes on weekdays.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "Make it Silver 300, Gold 550, Platinum 750.",
            "Fine: 40 percent pre-bookable up to two weeks ahead.",
            "Having reviewed the cost, I shall dispense with protein powder altogether.",
        ],
    );
    assert_kind(
        None,
        &[
            "Fine: what do we do next?",
            "It took not more than 45 minutes.",
            "Update: Dev read it already (2am his time, as always) and sent back one line.",
            "write me a short answer to this one",
        ],
    );
}

#[test]
fn a_change_announced_is_said_by_the_sentences_after_it_and_a_never_fragment_by_the_one_before() {
    let turns = [
        ("user", "Help me plan the novel."),
        ("assistant", "Sure."),
        ("user", "Right, let's kill off Brother Anselm in chapter 9."),
        ("assistant", "Understood."),
        (
            "user",
            "So, I talked to Dev last night, and we've changed it. Anselm lives. He loses his \
             sight instead, salt-blinded at the sluice gate. Which is worse, honestly.",
        ),
    ];
    let found = read(&turns);
    assert_said(
        &found,
        "Anselm lives. He loses his sight instead, salt-blinded",
        Kind::Decision,
    );
    assert!(said(&found, "Anselm lives").is_some_and(|i| i.overrides));
    let found = read(&[
        ("user", "Draft the letters."),
        ("assistant", "Will do."),
        (
            "user",
            "rent 990 correct. dates in full everywhere, like 2 November 2022. never numeric.",
        ),
    ]);
    assert_said(
        &found,
        "dates in full everywhere, like 2 November 2022. never numeric.",
        Kind::Rule,
    );
}

#[test]
fn values_given_anew_a_pick_by_place_with_its_name_and_what_replaces_a_dropped_choice_are_read() {
    let turns = [
        ("user", "Price our three plans."),
        (
            "assistant",
            "Suggested: Starter 9, Team 29, Business 79. Assessment weights: essays 40, exam 40, participation 20.",
        ),
        ("user", "weights now essays 45, exam 35, participation 20"),
        ("assistant", "Noted."),
        ("user", "Both balked at 15. Starter back down to 12."),
        ("assistant", "Noted."),
        (
            "user",
            "- scrap the Cuba hook. start chronologically with Yalta 1945\n- tell me when done",
        ),
    ];
    let found = read(&turns);
    assert_said(&found, "weights now essays 45", Kind::Decision);
    assert_said(&found, "Starter back down to 12", Kind::Decision);
    assert_said(
        &found,
        "scrap the Cuba hook. start chronologically with Yalta 1945",
        Kind::Decision,
    );
    // A condition or a place is no value given anew.
    for reply in ["the server is back up", "we now live in Denver"] {
        let found = reply_to(
            "The server, the emergency fund and the plans: Starter 9.",
            reply,
        );
        assert!(found.is_empty(), "{reply}: {found:?}");
    }
    let listed = "Three approaches:\n\n**1. A boxed program**\nStructured.\n\n**2. Seasonal unit studies, both kids together**\nCheap.\n\n**3. Nature study**\nWeekly walks.";
    let found = reply_to(
        listed,
        "The second one, unit studies, both kids together. That's what I pictured.",
    );
    assert_said(&found, "The second one, unit studies", Kind::Decision);
    // A pick by place alone, with what the sentence after it says of the one picked.
    let found = reply_to(listed, "The second one. Cheap is what we need.");
    assert_said(
        &found,
        "The second one. Cheap is what we need.",
        Kind::Decision,
    );
    assert!(reply_to(listed, "Second, my kids are 9 and 6.").is_empty());
    let lettered = "Two ways to weight it:\n\na) 4 + 1\nb) 3 + 1 + 1\n\nWhich?";
    let found = reply_to(
        lettered,
        "b) it is. 3 + 1 + 1, extensions at our discretion.",
    );
    assert_said(
        &found,
        "b) it is. 3 + 1 + 1, extensions at our discretion.",
        Kind::Decision,
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "On reflection, the vignettes will open each thematic section instead, at roughly 150 words apiece.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &["For the avoidance of doubt, citations throughout are to follow APA 7th edition."],
    );
}

#[test]
fn wishes_with_a_choice_verb_limits_favours_in_a_unit_and_gentle_rules_are_read() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "First, I would like us to restrict the core corpus to peer-reviewed work published from 2010 onward.",
            "Limit the list to ten items.",
            "ok looks good but can you give me distances in km, not miles?",
            "I shan't accept payment terms longer than 30 days.",
            "And since we're laying down the law: whatever we do, Agnes survives the book.",
            "If we do, I think anything in Latin should have a translation printed in the bulletin.",
            "practices can't run past 6:30 on weeknights because the late bus leaves at 6:45.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "I should say that the guidance is 10,000 to 15,000 words, and I would like to aim for roughly 12,000 words.",
            "I think Lessons and Carols on the third Sunday, at four o'clock, would be best.",
        ],
    );
    assert_kind(
        None,
        &[
            "Limit the damage.",
            "can you send it tomorrow, not today?",
            "I want to know more about it.",
            "it would be best to ask a lawyer",
            "Which would be best?",
            "I can't believe it went past 5.",
        ],
    );
}

#[test]
fn a_way_accepted_as_fine_and_a_pick_agreed_on_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Yes, I think that is the right consequence, and keeping it in the shared toolkit section is fine as long as the limitations reappear where they bite.",
            "That is the right consequence, and using Postgres for it is fine.",
            "We argued through dinner. We agreed on the third one, the L-shape with the island.",
            "Building it in Rust is fine.",
        ],
    );
    assert_kind(
        None,
        &[
            "Everything is fine.",
            "The building is fine.",
            "Running is fine for my knee.",
        ],
    );
}

#[test]
fn a_value_named_as_the_aim_is_a_decision() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Good, then A2 is the goal, and if B1 comes, it is a gift.",
            "Sub-3:10 is the target.",
            "Finishing is the goal, not a time.",
        ],
    );
    assert_kind(None, &["That is the goal.", "What is the goal?"]);
}

#[test]
fn what_is_wanted_against_another_and_a_limit_labelled_with_its_figure_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "We want European Portuguese, not Brazilian, because we live in Portugal.",
            "Hard ceiling: £9,500 installed, battery included, and I won't be talked above it.",
            "Time limit: 40 minutes.",
        ],
    );
    assert_kind(None, &["Budget breakdown: £400 for food, £200 for drinks."]);
}

#[test]
fn a_pick_after_its_topic_and_from_options_named_by_their_paragraphs() {
    let found = read(&[
        ("user", "Help me redesign our weekly paper."),
        (
            "assistant",
            "Three mastheads:\n\n**A. Blackletter.** Old-fashioned.\n\n**B. Bold serif capitals.** Confident.\n\n**C. Modern italic serif.** Warmer.",
        ),
        ("user", "Masthead's B. What goes in the strip under it?"),
    ]);
    assert_said(&found, "Masthead's B.", Kind::Decision);
    let found = read(&[
        ("user", "Help me plan my game's shop."),
        (
            "assistant",
            "One currency vs two:\n\nTwo currencies: a soft one earned by playing and a hard one bought.\n\nOne currency: everything priced in one thing, earned by playing.\n\nWhich suits you?",
        ),
        ("user", "one currency, seeds. how much should stuff cost?"),
    ]);
    assert_said(&found, "one currency, seeds.", Kind::Decision);
}

#[test]
fn a_habit_of_the_past_is_no_rule() {
    assert_kind(
        None,
        &[
            "We always had it on the fourth of July weekend.",
            "The previous editor, a Mr Chalk, always called it simply 'Parish News'.",
            "Maureen ran it for eight years and always picked Booker winners.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &[
            "cut bit 6 entirely, pretend it never existed.",
            "We always need a vegetarian option.",
        ],
    );
}

#[test]
fn long_speech_without_marks_is_read_in_parts() {
    let found = read(&[
        ("user", "Help me plan our family reunion at the lake cabin."),
        (
            "assistant",
            "Happy to. What about food: a potluck, a caterer, or a grill?",
        ),
        (
            "user",
            "we'll do the potluck with a sign up sheet Carol can make it up on the computer and send it along with the invitations and Dale can still grill whatever people bring for the grill and oh you need to know everything we serve has to be peanut free because little Maisie has the allergy so bad her mother carries two of those epi pens everywhere and that goes for the snacks and the s'mores and whatever the kids bring too",
        ),
        ("assistant", "Noted. Activities?"),
        (
            "user",
            "there is room for tents in the yard and my mother used to run these back in the day and we always had it the fourth of July weekend but that's too crowded now with the fireworks people and all the boats on the lake my daughter Carol says she will help",
        ),
    ]);
    assert_said(
        &found,
        "we'll do the potluck with a sign up sheet",
        Kind::Decision,
    );
    assert_said(
        &found,
        "everything we serve has to be peanut free because little Maisie has the allergy",
        Kind::Rule,
    );
    assert!(
        said(&found, "fourth of July").is_none() && said(&found, "all the boats").is_none(),
        "{found:?}"
    );
}

#[test]
fn hedged_rules_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "it might be best if every retention period in the policy is measured from the date the file is closed, not from when it was opened",
            "I'd really rather the policy didn't name any particular software vendor or product, if at all possible.",
            "I think the policy would need to say, pretty clearly, that nothing subject to a litigation hold can ever be destroyed under the schedule.",
        ],
    );
    // The rule after the words that lead it in.
    assert_kind(
        Some(Kind::Rule),
        &[
            "Before we go further, I should also say that the narrative must remain within 2,500 words, excluding the budget table and any appendices.",
        ],
    );
    assert_kind(
        None,
        &[
            "It would be best if we could talk tomorrow?",
            "I should say I loved the draft.",
        ],
    );
    assert_kind(Some(Kind::Decision), &["I'd rather go with B than not."]);
}

#[test]
fn a_label_scrapped_in_lower_case_and_options_left_open() {
    let found = read(&[
        ("user", "Help me set up our release process."),
        ("assistant", "Sure. What is the build setup?"),
        ("user", "`setuptools`, `pyproject.toml` only, no `setup.py`"),
        (
            "assistant",
            "Where should the version live?\n\n(a) hardcoded in `pyproject.toml`\n(b) derived from git tags with `setuptools-scm`",
        ),
        ("user", "(b)."),
        (
            "assistant",
            "Publishing: trusted publishing or an API token?",
        ),
        ("user", "publishing: trusted publishing or api token"),
        ("assistant", "Trusted publishing, no contest."),
        (
            "user",
            "scrap b, go with (a), hardcoded in `pyproject.toml`.",
        ),
    ]);
    assert!(
        said(&found, "(b).").is_some_and(|i| i.superseded.is_some())
            && said(&found, "no `setup.py`").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert!(said(&found, "api token").is_none(), "{found:?}");
}

#[test]
fn an_ask_after_a_dash_a_letter_for_now_and_a_scheme_taken_are_decisions() {
    let found = read(&[
        ("user", "Help me build a CLI called tidyrepo."),
        (
            "assistant",
            "For the CLI library:\n\n(a) argparse\n(b) click\n(c) typer",
        ),
        (
            "user",
            "Going with (b). I've used click before. What would cli.py look like?",
        ),
        (
            "assistant",
            "How should checks register?\n\n**A.** Entry points\n**B.** A decorator\n**C.** An explicit list",
        ),
        ("user", "C for now — explicit list in `checks/__init__.py`."),
        (
            "assistant",
            "Exit codes: 0 clean, 1 findings, 2 tool or usage error.",
        ),
        (
            "user",
            "Use that scheme: 0 clean, 1 findings, 2 tool or usage error.",
        ),
        ("assistant", "Done."),
        (
            "user",
            "Looking at how much `@click.option` noise there is already — can we switch from click to typer instead?",
        ),
    ]);
    assert_said(&found, "C for now", Kind::Decision);
    assert_said(&found, "Use that scheme", Kind::Decision);
    assert_said(&found, "can we switch from click to typer", Kind::Decision);
    assert_superseded(&found, "Going with (b).");
    assert_kind(
        None,
        &["Use that in the intro.", "Use that scheme everywhere."],
    );
}

#[test]
fn chatter_around_a_list_a_guessed_price_and_a_past_year_are_no_instructions() {
    let found = read(&[
        (
            "user",
            "Help me put together the catalogue for our charity auction.",
        ),
        (
            "assistant",
            "Start with a spreadsheet: one row per lot. Want to send me what you've got so far?",
        ),
        (
            "user",
            "Ok here's the first lot of lots lol\n- signed rugby shirt, from the club foundation, worth about £150?\n- spa day for two, £190",
        ),
        (
            "assistant",
            "Suggested reserves: rugby shirt £60-£75, spa day £80, the rest at 40% of value.",
        ),
        (
            "user",
            "Rugby shirt, reserve £80. the rest I'll go through properly tonight with a cuppa",
        ),
        (
            "assistant",
            "For the cover: a collage of lots, or one hero photo?",
        ),
        (
            "user",
            "ooh the collage is cute but I'd better ask Sue before I decide anything. Last year we had no reserves at all and the spa day went for £15. We've got 34 lots so far and more trickling in every day. Music off by 9pm sharp on the night.",
        ),
    ]);
    assert_said(&found, "reserve £80", Kind::Decision);
    assert_said(&found, "Music off by 9pm sharp", Kind::Rule);
    for chatter in [
        "Ok here's",
        "signed rugby shirt",
        "the rest",
        "ooh the collage",
        "Last year",
        "We've got",
    ] {
        assert!(
            !found
                .iter()
                .any(|i| unbulleted(&i.text).starts_with(chatter)),
            "{chatter} in {found:?}"
        );
    }
}

#[test]
fn formal_and_gentle_forms_of_rules_and_picks() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Leave the headnotes alone apart from spelling and measurements.",
            "The document cannot pass two pages, because nobody reads the long ones.",
            "the default closure period for restricted material shall be twenty-five years from the date of the interview.",
            "we would prefer two reminders: one three days before, one on the day.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "I am inclined towards the second model, the tiered consent with three access levels",
            "I now think we should deposit with the National Library of Wales instead.",
            "Korean tacos it is 🌮🇰🇷",
        ],
    );
    assert_kind(
        None,
        &[
            "leave me alone lol",
            "I shall put that question to them directly.",
            "I'm inclined to agree with you",
        ],
    );
    // "a.m." goes on where the words after it are in lower case.
    let found = read(&[
        ("user", "Help me set up appointment reminder texts."),
        ("assistant", "Happy to. What hours can messages go out?"),
        (
            "user",
            "We had a complaint last year about a call at ten at night, and I should like to avoid anything of the kind; nothing should be sent before 8 a.m. or after 7 p.m. Could you draft the first message?",
        ),
    ]);
    assert_said(&found, "or after 7 p.m.", Kind::Rule);
    // So do "excl.", "incl.", "min.", "max." and "hrs." ("under 15 slides excl. appendix").
    let found = read(&[
        ("user", "Help me build the board deck."),
        ("assistant", "Happy to. Any constraints?"),
        (
            "user",
            "Let's lead with the retention story. Keep it under 15 slides excl. appendix, the \
             board complains when we pad.",
        ),
    ]);
    assert_said(&found, "Keep it under 15 slides excl. appendix", Kind::Rule);
}

#[test]
fn a_run_on_reply_keeps_its_pick_its_words_and_its_rules() {
    let found = read(&[
        (
            "user",
            "Help me plan a week of meals for my dad, he has type 2 diabetes.",
        ),
        ("assistant", "Happy to. Anything he won't eat?"),
        (
            "user",
            "so things he likes, he's a proper meat and two veg man, loves a stew, shepherd's pie, chicken, sausages, he likes soup, he'll eat most veg if it's cooked soft, and he won't touch fish of any kind, he says he had enough of it in the navy, so no fish, not even tinned tuna, I know it's supposed to be good for him but it's just not happening, and he's not a huge eater at night, he's always been a big breakfast and lunch person",
        ),
        (
            "assistant",
            "Breakfasts:\n\n**A.** Overnight oats\n**B.** Scrambled eggs on toast\n**C.** Greek yoghurt with berries",
        ),
        (
            "user",
            "I think B most mornings, he's always liked eggs and he can do scrambled in the microwave in a mug, I showed him once and he was weirdly delighted, and then maybe porridge at the weekend for a change, oh and about the sugar in his tea, I'd rather we avoided artificial sweeteners altogether if we can, he says they give him headaches and they taste of metal to him, so we'll just try to cut down the sugar gradually",
        ),
        ("assistant", "Good plan. A pudding now and then is fine."),
        (
            "user",
            "these look great, quick question, what if he had a small pudding on a Sunday, would that be terrible, I'm not deciding anything I just want to know if it's off the table or not because he asks about it",
        ),
    ]);
    assert_said(&found, "so no fish, not even tinned tuna", Kind::Rule);
    assert_said(&found, "I think B most mornings", Kind::Decision);
    assert!(
        said(&found, "no fish").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert!(said(&found, "not deciding anything").is_none(), "{found:?}");
}

#[test]
fn a_preference_said_with_a_pick_takes_back_no_rule() {
    let found = read(&[
        (
            "user",
            "Help me write the alerting rules for our orders pipeline.",
        ),
        (
            "assistant",
            "Sure. What should page and what should open a ticket?",
        ),
        (
            "user",
            "Symptoms page. Anything cause-shaped (`cpu`, `heap`, GC pauses) routes to tickets, never pages.",
        ),
        (
            "assistant",
            "Freshness thresholds: page at 30 or 45 minutes, ticket at 20 or 35?",
        ),
        (
            "user",
            "Page at `orders_freshness_seconds > 1800`, ticket at `> 1200`. I'd rather be early while we learn the baseline. What `for:` would you use?",
        ),
    ]);
    assert!(
        said(&found, "routes to tickets, never pages").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn each_of_a_class_a_longer_yes_tag_and_an_emoji_before_a_question() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Cups for the Americans, obviously, but every cup measure keeps its gram weight in brackets after it.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["bump bulgogi to $13, it's still under 15 so we're good right?"],
    );
    assert_kind(None, &["I picked three colours, each one a shade of green"]);
    let found = read(&[
        (
            "user",
            "help me plan my food truck menu for the summer festival!!",
        ),
        (
            "assistant",
            "Love it! What equipment do you have on the truck?",
        ),
        (
            "user",
            "ok so also heads up — we have NO oven on the truck so everything has to come off the flat-top or the fryer, I've had people suggest baked stuff before and it's just not happening 🙃 what's the menu look like??",
        ),
    ]);
    assert_said(&found, "we have NO oven on the truck", Kind::Rule);
}

#[test]
fn a_value_kept_then_bumped_a_number_scratched_and_an_experience_told() {
    assert_kind(None, &["Never done a festival this big. HELP 🙏"]);
    let found = read(&[
        (
            "user",
            "help me plan a menu for my food truck at the summer festival!",
        ),
        ("assistant", "How many items do you want on the board?"),
        (
            "user",
            "Let's do 6 items! how much should each thing cost??",
        ),
        (
            "assistant",
            "Bulgogi tacos $12, tofu tacos $10, fries $6, quesadilla $9.",
        ),
        ("user", "$12 for the bulgogi tacos, keep that"),
        ("assistant", "Done. Anything else?"),
        (
            "user",
            "ok scratch the 6, let's do 4 mains + 1 drink and that's it.",
        ),
        ("assistant", "Four mains and a drink it is."),
        (
            "user",
            "bump bulgogi to $13, it's still under 15 so we're good right?",
        ),
    ]);
    assert_superseded(&found, "Let's do 6 items!");
    assert_superseded(&found, "$12 for the bulgogi tacos");
}

#[test]
fn a_named_option_that_sounds_right_is_picked() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "I think the shared mailbox sounds right for both of them, so we can all see if something's been dealt with.",
        ],
    );
    assert_kind(None, &["that sounds right", "yeah sounds right"]);
}

#[test]
fn a_pick_by_its_number_or_letter_alone_takes_the_words_after_it() {
    let listed = "Options:\n1. Jazz standards\n2. British dance bands of the 30s: Ray Noble, Al Bowlly\n3. Palm court strings\n\nWhich suits?";
    let found = reply_to(
        listed,
        "2. ray noble, bowlly, that sort. venue has PPL already.",
    );
    assert_said(&found, "2. ray noble, bowlly, that sort.", Kind::Decision);
    let lettered =
        "A) Recorded bell.\nB) Live bell rung offstage.\nC) Live with a recorded backup.";
    let found = reply_to(lettered, "B. live bell, ASM rings it, she's SL anyway.");
    assert_said(&found, "B. live bell, ASM rings it", Kind::Decision);
}

#[test]
fn news_a_wish_told_and_a_label_settle_nothing() {
    let found = read(&[
        (
            "user",
            "doing the SQ plot for our play. preshow music, doorbell, phone.",
        ),
        (
            "assistant",
            "Draft list: SQ 1 preshow music, SQ 2 doorbell, SQ 3 phone. A laptop into the hall PA \
             is safest; a Bluetooth speaker is the usual weak spot.",
        ),
        (
            "user",
            "dunno. ask me again after tech. preshow: director wants 'period'. whats out there",
        ),
        (
            "assistant",
            "Period preshow music: 1920s dance bands. The Bluetooth speaker is the weak spot.",
        ),
        (
            "user",
            "bluetooth died mid dress on Calendar Girls, so yes i know. whats the workaround",
        ),
        ("assistant", "A wired connection. The ASM could help too."),
        ("user", "ASM news. whats the plan for tech"),
    ]);
    assert!(found.iter().all(|i| i.message == 0), "{found:?}");
}

#[test]
fn a_contrast_that_holds_from_now_on_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "One thing about wording though, and this applies to everything we write from now on: please say \"kids and grown-ups\" instead of \"children and parents\"!",
            "Distances in nautical miles and times in UTC, if you please; I'll not have BST muddling the tide tables again.",
            "Oven temperatures in Fahrenheit, rounded to the nearest 5.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &[
            "Therefore we change it to 'rent excluding service charges (Kaltmiete)' everywhere, please.",
            "And for Kaltmiete we take simply 'basic rent', I think this is the most easy for him.",
        ],
    );
    assert_kind(
        None,
        &[
            "just me and Jordan 💕 that way no drama about which bridesmaid's bf gets to sit up there lmao.",
            "prices in euros went up again last month.",
            "for lunch we take turns",
        ],
    );
}

#[test]
fn the_items_under_conventions_are_rules_but_a_question_among_them_is_not() {
    let found = read(&[
        ("user", "help me move our SQL scripts to dbt."),
        ("assistant", "Sure. Where do we start?"),
        (
            "user",
            "ok. conventions before anyone writes a model:\n- naming is `stg_<source>__<entity>`, all lowercase\n- can you sketch the folder layout?",
        ),
    ]);
    assert_said(&found, "naming is `stg_<source>__<entity>`", Kind::Rule);
    assert!(said(&found, "folder layout").is_none(), "{found:?}");
}

#[test]
fn another_letter_from_the_same_list_takes_the_first_pick_back() {
    let listed = "Three ways to fit it in:\n\nA. Two sessions a day, morning and late afternoon.\n\nB. One longer session a day, about 40 minutes.\n\nC. Three short sessions.";
    let found = read(&[
        ("user", "Help me plan my exercises after knee surgery."),
        ("assistant", listed),
        (
            "user",
            "I think B suits me best, one longer session mid-morning once the painkillers have kicked in.",
        ),
        ("assistant", "B it is. Keep the ice pack handy afterwards."),
        ("user", "Will do. Frozen peas work, I suppose?"),
        ("assistant", "They do. Wrap them in a tea towel."),
        (
            "user",
            "Gemma says I'm stiffening up. So actually we'll do A, two sessions a day, morning and late afternoon.",
        ),
    ]);
    assert_superseded(&found, "I think B suits me best");
}

#[test]
fn the_one_named_and_a_change_announced_before_a_comma_decide() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Founder Fuel is the one, it's punchy, it's alliterative, it's SO on brand.",
            "So we change, we use \"homemade\" everywhere.",
        ],
    );
    assert_kind(None, &["my mom is the one who decides"]);
}

#[test]
fn a_value_still_being_thought_about_settles_nothing() {
    let found = read(&[
        ("user", "help me cut our kubernetes bill."),
        (
            "assistant",
            "Rightsizing comes next: VPA recommendations or Goldilocks dashboards both work.",
        ),
        (
            "user",
            "rightsizing: thinking VPA. what are the modes again and what's sane",
        ),
    ]);
    assert!(found.iter().all(|i| i.message != 2), "{found:?}");
}

#[test]
fn a_plot_twist_turns_to_the_choice_after_it() {
    let found = read(&[
        ("user", "help me set up our fantasy league."),
        (
            "assistant",
            "**Snake draft**: picks go in order.\n\n**Auction draft**: everyone bids.",
        ),
        (
            "user",
            "snake draft, 60 sec timer. auction would take 4 hrs with these clowns.",
        ),
        ("assistant", "Snake it is."),
        (
            "user",
            "ok PLOT TWIST. group chat voted and they actually WANT auction. so we're doing auction, $200 budget.",
        ),
    ]);
    assert_superseded(&found, "snake draft, 60 sec timer.");
}

#[test]
fn a_change_announced_on_a_topic_is_said_with_the_choice_after_it() {
    for asked in [
        "Saturday the 14th it is.",
        "Check the flares and the hydrostatic release, which has its own expiry date.",
    ] {
        let found = read(&[
            ("user", "Help me plan a passage to the Scillies."),
            ("assistant", "When do you want to leave?"),
            (
                "user",
                "We'll aim for Saturday the 14th, leaving Falmouth at first light.",
            ),
            ("assistant", asked),
            (
                "user",
                "Change of heart on the date. Make it Sunday the 15th instead; the regatta lot can have Saturday. Harold is bringing his brother, who has never sailed further than the Helford, so could you also put together a short list of the jobs a complete novice can safely do on deck?",
            ),
        ]);
        assert!(
            said(
                &found,
                "Change of heart on the date. Make it Sunday the 15th instead"
            )
            .is_some_and(|i| i.overrides && i.replaced.is_some()),
            "{asked}: {found:?}"
        );
        // Not "Change of heart on the date." alone, as what the answer before it asked, settled.
        assert!(
            found
                .iter()
                .all(|i| i.text != "Change of heart on the date."),
            "{found:?}"
        );
    }
}

#[test]
fn a_topic_label_opening_a_reply_is_no_pick() {
    let asked = "The roster, the draft and the timeline: **Roster** sizes vary, a **draft** \
                 can be snake or auction, and the **timeline** runs to the wedding.";
    for reply in [
        "ok roster first. what's the standard setup",
        "ok now the timeline.",
    ] {
        let found = reply_to(asked, reply);
        assert!(found.iter().all(|i| i.message != 2), "{reply}: {found:?}");
    }
}

#[test]
fn a_thing_of_the_work_that_will_run_a_way_is_settled() {
    let found = read(&[
        ("user", "Help me build the school timetable."),
        (
            "assistant",
            "The timetable can run on a one-week or a two-week cycle; which suits you?",
        ),
        (
            "user",
            "The timetable will operate on a two-week cycle, as it does at present.",
        ),
    ]);
    assert_said(&found, "two-week cycle", Kind::Decision);
}

#[test]
fn a_choice_relayed_from_above_replaces_the_value_it_names_as_dropped() {
    let found = read(&[
        ("user", "Help me draft our grant application."),
        ("assistant", "Happy to. What is the request?"),
        (
            "user",
            "Our Executive Director has indicated that the request should be $48,000.",
        ),
        ("assistant", "Noted. What rate for the teaching artists?"),
        (
            "user",
            "The teaching artist rate is $44,000 FTE, not $42,000.",
        ),
        ("assistant", "Noted; the budget table follows."),
        (
            "user",
            "The Board's finance committee met last night and, in light of the Foundation's average award, has asked us to request $45,000 rather than $48,000.",
        ),
    ]);
    let relayed = said(&found, "has asked us to request $45,000").expect("the relayed choice");
    assert_eq!(relayed.kind, Kind::Decision, "{found:?}");
    assert_eq!(
        relayed.replaced.as_deref(),
        Some("Our Executive Director has indicated that the request should be $48,000."),
        "{found:?}"
    );
    assert!(
        said(&found, "$44,000 FTE").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert_kind(None, &["My boss asked me to look into the grant."]);
}

#[test]
fn formal_prohibitions_are_rules_and_weighed_sayings_and_openers_are_not() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "The term \"at-risk\" is not to be used anywhere in the application; the Board adopted \"youth facing barriers\" in 2022.",
            "Phones are not to be used in class.",
        ],
    );
    assert_kind(
        None,
        &[
            "The chap at the chandlery says every three years for our model, Harold says annually, and Harold also believes the weather is run by the BBC.",
            "Right then.",
            "OK then.",
        ],
    );
    assert_kind(Some(Kind::Decision), &["Fine, the train then."]);
}

#[test]
fn a_pick_by_place_or_label_opens_a_reply_and_a_part_named_long_ago_is_a_topic() {
    let asked = "Three ways:\n\n1. Move it earlier.\n\n2. Let the sound bath become the doorway.\n\n3. Shorten it.";
    let found = reply_to(
        asked,
        "The first, I think: begin at 8:00 and let the last bowl fade by 8:50.",
    );
    assert_said(&found, "The first, I think", Kind::Decision);
    // Options an earlier list lettered, spoken of by their letters.
    let asked = "To guarantee ~8 kWh:\n- With B, you'd need a reserve of ~80%.\n- With C, a reserve of ~60% still leaves ~5 kWh.";
    let found = reply_to(
        asked,
        "Then C: 13.5 kWh nominal. I would rather over-provision.",
    );
    assert_said(&found, "Then C: 13.5 kWh nominal.", Kind::Decision);
    // "running order", named in the first answer, is turned to, not picked.
    let found = read(&[
        (
            "user",
            "I'm in charge of the seating plan and the reception running order.",
        ),
        (
            "assistant",
            "Let's start with the seating plan, then the running order.",
        ),
        ("user", "Kids at the family tables, please."),
        ("assistant", "An activity corner works well for the kids."),
        (
            "user",
            "Okay, running order!! The ceremony's done at 2. Where do speeches go?",
        ),
    ]);
    assert!(found.iter().all(|i| i.message != 4), "{found:?}");
}

#[test]
fn what_the_same_message_decided_is_not_decided_again() {
    let found = read(&[
        ("user", "Help me restore my 1968 Triumph."),
        ("assistant", "Rebuild the Strombergs, or fit Webers?"),
        ("user", "Option 1, rebuilding the originals."),
        ("assistant", "Good. Next is the body."),
        (
            "user",
            "Now body. Needs paint, obviously. Car was white when I bought it but it's a respray, I can see yellow in the door shuts. I'm going with Jasmine Yellow, I've always loved it and the door shuts back me up. Heritage cert will confirm but I'm confident.",
        ),
    ]);
    assert!(
        said(&found, "Option 1, rebuilding the originals.").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert!(
        said(&found, "I'm going with Jasmine Yellow").is_some_and(|i| !i.overrides),
        "{found:?}"
    );
}

#[test]
fn a_leaning_found_and_a_pick_said_by_name_then_label_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "I find myself drawn to (c), for precisely the reason you give; the aunts will read the narrative.",
        ],
    );
    assert_kind(None, &["I'm inclined to agree with you."]);
    let asked = "Possible murderers:\n\n**A. Constance** — the obvious suspect.\n**B. Eli** — fraternal resentment.\n**C. Agnes** — the least suspected.\n\nWhich resonates?";
    let found = reply_to(
        asked,
        "Agnes. C, without question — I think I always knew it. The brittle efficiency, the ledger of who brought which marrow, the terrible order of it, and the way she arranged the altar flowers every single Sunday of her life. Now: chapters. How many would you suggest?",
    );
    assert_said(&found, "Agnes. C, without question", Kind::Decision);
}

#[test]
fn a_bound_we_keep_and_a_thing_said_to_be_one_form_only_are_rules() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Budget — they said forty, but I reckon we keep the whole job under $38k inc GST so there's a bit of fat for when we hit limestone.",
            "And the planting's natives only, mate — that's their brief and it's how I like working anyway.",
        ],
    );
    assert_kind(
        None,
        &[
            "and the kid's only five.",
            "the team's only option is to wait",
        ],
    );
}

#[test]
fn a_thing_that_now_takes_a_role_is_a_choice_made_anew() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "ok RC3 is now the candidate, RC2 is dead too.",
            "Maria is now our lead.",
        ],
    );
    assert_kind(
        None,
        &[
            "it is now the weekend.",
            "the build is now green.",
            "Bob is our neighbour.",
        ],
    );
    let found = read(&[
        ("user", "Help me run the 4.2 release."),
        ("assistant", "Which build goes to regression?"),
        ("user", "We'll go with RC2 as the release candidate."),
        ("assistant", "RC2 it is; regression starts tomorrow."),
        (
            "user",
            "ok RC3 is now the candidate, RC2 is dead too. I'll update the ticket.",
        ),
    ]);
    assert_superseded(&found, "We'll go with RC2");
}

#[test]
fn a_value_named_beside_an_override_is_the_one_it_moves() {
    let found = read(&[
        ("user", "Help me plan our club's star party this autumn."),
        (
            "assistant",
            "Our window is September to mid-October, then. Options: A, the 14th; B, the 21st; C, the 28th.",
        ),
        ("user", "Let's go with C, the 28th."),
        ("assistant", "The 28th it is."),
        (
            "user",
            "Our window is September to mid-October, by the way, it gets too cold after.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "Oh no, the 28th is the school's harvest fete. Change of plan: we're moving it to Saturday 5 October.",
        ),
    ]);
    assert_superseded(&found, "Let's go with C, the 28th.");
    assert!(
        said(&found, "Our window is September").is_none_or(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn plans_said_plainly_in_a_second_language_or_gently_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "We start in Ulm instead, and Donauquelle we visit another weekend by car with my brother.",
            "We begin in Donaueschingen, at the Donauquelle, this is for me important.",
            "Okay, about the start, final now: Regensburg.",
            "I think I like the last one best... it has such a warm sound to it, like a family supper.",
            "I think the second one is best, with the cash table right by the door.",
            "So it will be Sunday the 20th, from eleven until two.",
            "Then we take the other one, the online teacher.",
            "gonna measure height every 2 days, is that enough?",
        ],
    );
    assert_kind(
        None,
        &[
            "The harvest festival in town is on the 5th, so perhaps not that weekend, as everyone will be there instead.",
            "I do hope I'm doing this correctly, my grandson set this up for me on the computer.",
            "Which one is best?",
            "The hall is needed for a reception.",
        ],
    );
    let found = read(&[
        ("user", "Help me organise the parish bake sale."),
        ("assistant", "When would you like to hold it?"),
        (
            "user",
            "Let's say Saturday the 12th of October, from nine until one...",
        ),
        ("assistant", "Saturday the 12th it is."),
        (
            "user",
            "Father Dominic telephoned. So it will be Sunday the 20th, from eleven until two.",
        ),
    ]);
    assert_superseded(&found, "Let's say Saturday the 12th");
}

#[test]
fn a_choice_labelled_final_replaces_the_one_before() {
    let found = read(&[
        (
            "user",
            "Help me plan our Danube bike tour, one week in June.",
        ),
        (
            "assistant",
            "Where would you like to start: Donaueschingen or Ulm?",
        ),
        ("user", "We start in Ulm, the first part is too hilly."),
        ("assistant", "Ulm it is: flat and with good trains."),
        ("user", "Okay, about the start, final now: Regensburg."),
    ]);
    assert_superseded(&found, "We start in Ulm");
    assert!(
        said(&found, "final now: Regensburg").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn what_the_user_must_say_or_never_did_binds_nothing() {
    assert_kind(
        None,
        &[
            "There is one thing I must mention before we go further, and it is very important to me.",
            "This I must discuss with Birgit tonight.",
            "We must see when Birgit gets Urlaub, her boss is difficult.",
            "I never would have thought about the chocolate chips.",
            "Mrs. Hollis kept it all in her head, bless her, and she never wrote anything down.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &[
            "We must tell every client before we raise prices.",
            "Secrets are never logged.",
            "I must stress: no nuts in anything.",
        ],
    );
}

#[test]
fn an_order_after_its_aside_a_promise_to_people_and_a_thing_named_first_are_read() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "and one thing, um, the intro – like the cold open plus the theme plus Dana's hello – keep it under 90 seconds total, people skip otherwise",
            "oh and, um, guests get to hear their episode before it goes out, like every single one",
            "every author gets to see the proofs",
        ],
    );
    assert_kind(
        None,
        &[
            "she gets to pick tonight",
            "people get to the venue by car",
            "the intro – like the cold open – was too long last time",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["The Volkshochschule course I will take, Tuesday evenings, starting in September."],
    );
    assert_kind(
        None,
        &["That I will do, thanks.", "The bus we take every day."],
    );
}

#[test]
fn a_number_disliked_names_the_choice_an_override_replaces() {
    let found = read(&[
        ("user", "Help me plan our podcast with Dana."),
        ("assistant", "How long should each episode run?"),
        (
            "user",
            "Dana and I talked, we're going with Side Quest as the name, the others felt flat.",
        ),
        ("assistant", "Side Quest it is."),
        (
            "user",
            "We'll do 30 minute episodes, the network likes that for commutes.",
        ),
        ("assistant", "30 minutes it is."),
        (
            "user",
            "okay so, change of plan, Dana listened back and she really hates the 30 minute cut, it felt rushed, so we're landing on 40.",
        ),
    ]);
    assert_superseded(&found, "We'll do 30 minute episodes");
    assert!(
        said(&found, "we're going with Side Quest").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn a_choice_stated_before_a_question_after_a_semicolon_is_read() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Having spoken to my client this morning, I think (b) is the most defensible course, and she is content with it; would you be good enough to draft it accordingly?",
        ],
    );
    assert_kind(
        None,
        &[
            "Should we keep it under 5 minutes; or is that too short?",
            "We could keep it under 5 minutes; what do you think?",
        ],
    );
}

#[test]
fn a_count_of_days_set_anew_replaces_the_one_before() {
    let found = read(&[
        ("user", "Help me write letters to my tenant."),
        ("assistant", "Sure. How long will you give him to pay?"),
        ("user", "We'll give him 14 days."),
        ("assistant", "Fourteen days it is."),
        (
            "user",
            "Solicitor rang back. Says a fortnight is asking for trouble. Make it 30 days.",
        ),
    ]);
    assert_superseded(&found, "We'll give him 14 days.");
}

#[test]
fn an_option_dropped_on_its_own_is_replaced_by_the_sentence_after_it() {
    let turns = |news: &str, taken: &str| {
        read(&[
            ("user", "Help me plan the new bee yard this spring."),
            ("assistant", "Where could it go?"),
            ("user", taken),
            ("assistant", "Good choice, it is sheltered there."),
            ("user", news),
        ])
    };
    let found = turns(
        "Went down to the creek this morning early like you said. Fog was sitting thick on it \
         and the ground was wet clear to my boot tops. That settles it. Forget the creek bottom. \
         The new yard goes up on the east ridge by the old corn crib.",
        "I reckon we'll put the new yard down by the creek bottom.",
    );
    assert_superseded(&found, "down by the creek bottom");
    let found = turns(
        "Avocado prices spiked this week, can't make the math work. Kill the mousse. Dessert \
         goes to roasted apple crumble cups with oat topping. Seasonal, cheap. Do the numbers.",
        "Let's do chocolate-avocado mousse cups for dessert, 4 oz.",
    );
    assert_superseded(&found, "mousse cups");
    // Dropping a pronoun or a person drops no option.
    let found = turns(
        "The weather turned and the ground was wet clear to my boot tops this morning, \
         so I stayed in all day. Forget it. The hives by the barn need new frames anyway.",
        "I reckon we'll put the new yard down by the creek bottom.",
    );
    assert!(
        said(&found, "down by the creek bottom").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn moves_plans_and_settings_in_plain_words_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "So the briefing moves to 7:45 at the start line instead.",
            "First reminder moves to 6 wks pre-due.",
            "So we move to the 5 and 6 November.",
            "Run at 01:30 UTC.",
            "For the dates, we fix the dates: 22 and 23 October.",
            "As to the season, I have settled upon the latter half of May for the journey.",
            "We're targeting a release on Tuesday the 14th.",
            "ok we're doing it in the garden, it'll look sick with lights",
            "We're now calling it “Tosia and the Wind That Wouldn't Stop”.",
        ],
    );
    assert_kind(
        None,
        &[
            "my sister moves to Leeds in May.",
            "I was there at 5pm.",
            "ugh weather app says rain all weekend",
        ],
    );
}

#[test]
fn a_date_time_or_price_moved_replaces_the_one_that_set_it() {
    let found = read(&[
        ("user", "Help me plan the charity fun run."),
        ("assistant", "When should the marshals' briefing be?"),
        (
            "user",
            "Let's do the briefing on the morning, 7:15, before the 8:30 start.",
        ),
        ("assistant", "A 7:15 briefing leaves time for questions."),
        (
            "user",
            "Hmm, the park gates don't open until 7:30! So the briefing moves to 7:45 at the start line instead.",
        ),
    ]);
    assert_superseded(&found, "Let's do the briefing");
    // A release moved to a date takes back the date set, not the notes pasted into the
    // release page.
    let found = read(&[
        ("user", "Help me prepare the release notes."),
        (
            "assistant",
            "Where should the notes live, and when do you ship?",
        ),
        ("user", "We're targeting a release on Tuesday the 14th."),
        (
            "assistant",
            "Tuesday the 14th gives a week for the release candidate.",
        ),
        (
            "user",
            "So: we'll paste the full notes into the GitHub release as well.",
        ),
        (
            "assistant",
            "Pasting them keeps the email readers informed.",
        ),
        (
            "user",
            "rc1 turned up a regression. Release moves to Thursday the 23rd so rc2 can soak.",
        ),
    ]);
    assert!(
        said(&found, "targeting a release").is_some_and(|i| i.superseded.is_some())
            && said(&found, "paste the full notes").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    // A time or a price set anew, by a verb that moves it.
    for (first, then) in [
        (
            "Run at 01:30 UTC.",
            "Finance's export hammers the replica until 02:00. Shift ours to 02:30 UTC.",
        ),
        (
            "Let's price the season pass at $4.99 to start.",
            "Take the pass to $6.99 — through an A/B obviously.",
        ),
    ] {
        let found = read(&[
            ("user", "Help me plan this."),
            ("assistant", "What should we settle first?"),
            ("user", first),
            ("assistant", "Noted, that works for now."),
            ("user", then),
        ]);
        assert_superseded(&found, first);
    }
}

#[test]
fn a_change_said_after_an_emoji_replaces_the_plan() {
    let found = read(&[
        ("user", "help me plan my 16th party"),
        ("assistant", "Where will it be?"),
        (
            "user",
            "ok we're doing it in the garden, it'll look sick with lights",
        ),
        ("assistant", "The garden with string lights sounds great."),
        (
            "user",
            "ugh weather app says rain all weekend 😭 moving it to the basement instead, my dad said he'll clear it out and we can bring the lights down there",
        ),
    ]);
    assert_superseded(&found, "in the garden");
}

#[test]
fn what_a_drop_names_or_the_line_after_it_says_replaces() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "i'm gonna do the homestay, i want the full immersion family experience!",
            "ten tracks. that's the shape, we decided over soup.",
        ],
    );
    let replaced = |first: &str, then: &str, taken: &str| {
        let found = read(&[
            ("user", "Help me plan this."),
            ("assistant", "What should we settle first?"),
            ("user", first),
            ("assistant", "Noted, that works for now."),
            ("user", then),
        ]);
        assert_superseded(&found, taken);
    };
    // The line after "Drop it." says what replaces.
    replaced(
        "Load pattern decided: stage in Snowflake, then `MERGE` into the fact table.",
        "Rethinking the load.\nRan the full-size test.\nDrop it.\nAppend-only into a raw table, plus a dedup view on top.",
        "Load pattern decided",
    );
    // What "drop" names, among the choices that speak of it.
    replaced(
        "Tooling next. Going with Lookback.",
        "Tooling change. Drop Lookback. IT blocked the install. Zoom for sessions + Dovetail for tagging instead.",
        "Going with Lookback.",
    );
    // A rule by its last sentence, named by what is killed.
    replaced(
        "Lede is the Marlow scene. Draft me a nut graf that comes right after, 80 words max.",
        "So: kill the Marlow lede.",
        "Lede is the Marlow scene.",
    );
    // Dropped in a sentence of its own, then what replaces it.
    let found = read(&[
        ("user", "Help me edit this piece."),
        ("assistant", "What opens it?"),
        (
            "user",
            "Lede is the Marlow scene. Draft me a nut graf that comes right after, 80 words max.",
        ),
        ("assistant", "Here is a nut graf."),
        (
            "user",
            "Problem. Karen Marlow called the reporter last night — her brother doesn't want the family in it, she's pulling out. Legal says we can't use the scene without her. So: kill the Marlow lede. We open on the invoice — March 3, billed eleven days after the funeral.",
        ),
    ]);
    assert!(
        found
            .iter()
            .any(|i| i.overrides && i.text.contains("We open on the invoice")),
        "{found:?}"
    );
    // A count stretched.
    replaced(
        "Let's have the main arc run ten sessions, with room for side stuff.",
        "Aaand update: my players voted to play weekly, so stretch the arc to twelve sessions.",
        "the main arc run ten sessions",
    );
}

#[test]
fn minutes_days_named_and_the_way_it_goes_are_decisions() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "It is agreed that the season fee shall be $40 per plot, the same rate applying to raised beds.",
            "its gonna be saturday the 14th",
            "We open the 15 of April, is the date of my nonna's birthday.",
            "Ok, we go in the first two weeks of September.",
            "we run Sunday, A1, jumping to 12–13.",
            "We're going IKEA boxes with custom fronts painted sage green.",
            "We're going 3-2-3 this season.",
            "Sign us up for the Riverside Cup.",
            "The pilot moves to April.",
        ],
    );
    assert_kind(
        None,
        &[
            "We go to the gym in March every year.",
            "we're going home after this",
        ],
    );
    let found = read(&[
        ("user", "Help me keep the minutes of the garden committee."),
        ("assistant", "What did the committee settle on the fee?"),
        (
            "user",
            "It is agreed that the season fee shall be $40 per plot, the same rate applying to raised beds.",
        ),
        ("assistant", "Recorded: $40 per plot."),
        (
            "user",
            "It is agreed that the fee shall instead be $35 per plot, with the same rate for raised beds.",
        ),
    ]);
    assert_superseded(&found, "$40 per plot");
}

#[test]
fn a_change_said_after_news_joined_by_and_is_read() {
    let found = read(&[
        ("user", "Help me write the remote-work policy."),
        ("assistant", "Happy to. What does equipment look like?"),
        (
            "user",
            "We will adopt a monthly home-office stipend of $50.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "Further to the Illinois point, Finance has reviewed the figures and we are raising the stipend to $75 per month.",
        ),
    ]);
    assert_superseded(&found, "stipend of $50");
    assert!(said(&found, "raising the stipend").is_some_and(|i| i.superseded.is_none()));
    // News joined by "and" to what was only done is no instruction.
    assert_kind(
        None,
        &[
            "I told her and we laughed about it.",
            "She called and I said we'd think about it.",
        ],
    );
}

#[test]
fn a_number_set_alone_recounts_the_one_count_decided() {
    let found = read(&[
        ("user", "Help me staff the 10k race."),
        ("assistant", "How many volunteers?"),
        ("user", "Ok, we'll aim for 70 volunteers total."),
        ("assistant", "And the briefing?"),
        ("user", "Let's do the briefing at 7:15."),
        ("assistant", "Noted."),
        (
            "user",
            "70 isn't going to cut it, is it? Let's bump the target up to 90.",
        ),
    ]);
    assert_superseded(&found, "70 volunteers");
    assert!(said(&found, "7:15").is_some_and(|i| i.superseded.is_none()));
    let found = read(&[
        ("user", "Help me shape the wine list."),
        ("assistant", "How long should it be?"),
        ("user", "Let us settle on eighty labels."),
        ("assistant", "Lovely."),
        ("user", "Let us pare the list to sixty."),
    ]);
    assert_superseded(&found, "eighty labels");
    // A number far from the count is not a recount of it: the time of a meeting.
    let found = read(&[
        ("user", "Help me plan the fundraiser."),
        ("assistant", "How many guests?"),
        ("user", "We'll invite 120 guests."),
        ("assistant", "Noted."),
        ("user", "Let's push the committee call to 3."),
    ]);
    assert!(said(&found, "120 guests").is_some_and(|i| i.superseded.is_none()));
    assert!(changes_to(
        "dropping the starting hand to 4 – five was too many."
    ));
    assert!(!changes_to("moving on to the budget now."));
}

#[test]
fn an_option_said_gone_is_dropped_and_back_to_a_place_points_at_nothing() {
    let found = read(&[
        ("user", "Help me stage the play."),
        ("assistant", "What configuration?"),
        (
            "user",
            "We shall play it in traverse, the audience on both long sides.",
        ),
        ("assistant", "Lovely."),
        (
            "user",
            "I have measured, and oh, despair! Traverse is dead. We go thrust, with the audience on three sides.",
        ),
    ]);
    assert_superseded(&found, "in traverse");
    assert!(said(&found, "We go thrust").is_some_and(|i| i.overrides && i.superseded.is_none()));
    let found = read(&[
        ("user", "Help me plan the banner treatment."),
        ("assistant", "Which overlay?"),
        ("user", "For the overlay, we'll use silk crepeline."),
        ("assistant", "Noted."),
        (
            "user",
            "The crepeline is off; it's too fragile for the painted area. Stabiltex it is.",
        ),
        ("assistant", "Good choice."),
        ("user", "Thank you. Back to the lab."),
    ]);
    assert_superseded(&found, "silk crepeline");
    assert!(said(&found, "Stabiltex it is").is_some_and(|i| i.superseded.is_none()));
    // A person away, or what was just said, is no option dropped.
    for news in ["She's off today.", "It's out.", "Is the patio out?"] {
        assert!(gone(&crate::case::lowercase(news)).is_none(), "{news}");
    }
}

#[test]
fn a_change_ordered_after_an_emoji_is_a_sentence_of_its_own() {
    let found = read(&[
        ("user", "help me book a tattoo series"),
        ("assistant", "How often?"),
        ("user", "let's do every 3 weeks."),
        ("assistant", "Ok."),
        (
            "user",
            "also turns out she heals slow, told me her last piece took ages to settle 😬 make it a month between sittings",
        ),
        ("assistant", "Ok."),
        ("user", "thx"),
    ]);
    assert!(said(&found, "a month between").is_some_and(|i| i.kind == Kind::Decision));
}

#[test]
fn a_voice_that_ends_its_sentences_with_dashes_is_read_sentence_by_sentence() {
    let found = read(&[
        (
            "user",
            "hey - prepping ep 14 - need help structuring the edit",
        ),
        ("assistant", "How long is the raw tape?"),
        (
            "user",
            "raw is 2h10 - she rambles - and keep the final cut under 45 min - that's a hard cap for us",
        ),
        ("assistant", "Got it."),
        (
            "user",
            "ok let's do the cold open with the runway story - it's the best bit",
        ),
        ("assistant", "Nice."),
        (
            "user",
            "hmm - actually no - start with the host intro, the classic way - the runway story loses punch twice",
        ),
        ("assistant", "Sure."),
        (
            "user",
            "ok schedule - ep goes out thursday the 12th - locking that",
        ),
        ("assistant", "Locked."),
        (
            "user",
            "ok random thought - the temp intro is flat - honestly just scrap that - montage up top instead",
        ),
        ("assistant", "Good call."),
        ("user", "thanks"),
    ]);
    assert!(
        said(&found, "keep the final cut under 45 min")
            .is_some_and(|i| i.kind == Kind::Rule && i.superseded.is_none())
    );
    assert_superseded(&found, "cold open");
    assert_superseded(&found, "host intro");
    assert!(said(&found, "thursday the 12th").is_some_and(|i| i.superseded.is_none()));
    assert!(said(&found, "montage up top").is_some_and(|i| i.superseded.is_none()));
}

#[test]
fn an_order_after_a_turn_with_no_mark_of_a_rule_is_a_choice() {
    let found = read(&[
        ("user", "Help me set the clinic's day."),
        ("assistant", "Lunch?"),
        ("user", "Lunch: everyone 12:30–1:30."),
        ("assistant", "Noted."),
        (
            "user",
            "Scrap the single lunch hour. Front desk eats 12:00–12:30 so the phones stay covered, clinical 12:30–1:30.",
        ),
        ("assistant", "Done."),
        ("user", "Thanks."),
    ]);
    assert!(said(&found, "Front desk eats").is_some_and(|i| i.kind == Kind::Decision));
}

#[test]
fn an_override_after_its_reasons_is_named_by_what_follows_so() {
    let found = read(&[
        ("user", "Help me with the practice's autumn mailing."),
        ("assistant", "What goes in it?"),
        (
            "user",
            "Let's include the complimentary fluoride varnish for children under twelve in this mailing.",
        ),
        (
            "assistant",
            "Here are two introductions, a short and a long one.",
        ),
        (
            "user",
            "I have decided we'll use the shorter of your two introductions for Priya.",
        ),
        ("assistant", "Good."),
        (
            "user",
            "Our advisor raised concerns about two of our insurance contracts, so I'm afraid the fluoride offer will not go ahead after all.",
        ),
        ("assistant", "Understood."),
        ("user", "Thank you."),
    ]);
    assert_superseded(&found, "fluoride varnish");
    assert!(said(&found, "two introductions").is_some_and(|i| i.superseded.is_none()));
}

#[test]
fn plans_for_the_kids_and_where_it_is_held_are_decisions_and_tales_are_no_rules() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "So lets book that pontoon boat ride for the kids, a couple of trips around the lake.",
            "So we'll have it at the Lakeside pavilion, once Carol and I work out which Saturday.",
        ],
    );
    assert_kind(
        None,
        &[
            "I'll take the kids to school.",
            "Oh the lake one sounds lovely, we used to go out there, never caught a thing.",
            "My sister never listens anyway, she'll bring three pies no matter what anybody tells her.",
            "He'll be late no matter what.",
            "let's have it out with him",
        ],
    );
    assert_kind(Some(Kind::Rule), &["He'll have to sign in every time."]);
}

#[test]
fn a_time_in_words_and_a_time_set_with_is_are_read() {
    assert_kind(
        Some(Kind::Decision),
        &["Loading moves to a quarter to five."],
    );
    let found = read(&[
        ("user", "Help me provision the ship."),
        ("assistant", "When do we load?"),
        (
            "user",
            "Loading is half past six Tuesday morning. What order should it come on?",
        ),
        ("assistant", "Dry goods first."),
        ("user", "Wharf called. Loading moves to a quarter to five."),
        ("assistant", "Noted."),
        ("user", "Thanks."),
    ]);
    assert_superseded(&found, "half past six");
    assert!(said(&found, "a quarter to five").is_some_and(|i| i.superseded.is_none()));
    for (line, time) in [
        ("Launch date is Oct 14.", true),
        ("Handover is at 7:30.", true),
        ("Today is Monday.", false),
        ("The weather is awful on Tuesday.", false),
    ] {
        let found = read(&[
            ("user", "Help me plan the week."),
            ("assistant", "Sure."),
            ("user", line),
            ("assistant", "Noted."),
            ("user", "Thanks."),
        ]);
        assert_eq!(said(&found, line).is_some(), time, "{line}");
    }
}

#[test]
fn what_no_one_does_but_on_a_condition_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Nobody administers a vaccine without a second person checking the batch number.",
            "I need to be strict then: nobody peeks at the lift before the end date.",
            "No one leaves until the count is done.",
        ],
    );
    assert_kind(
        None,
        &[
            "Nobody likes the new logo.",
            "Nobody knows until Friday.",
            "Nothing happens without coffee, honestly.",
        ],
    );
}

#[test]
fn how_one_would_rather_be_is_no_choice_and_takes_nothing_back() {
    assert_kind(
        None,
        &["I'd rather be cautious.", "We'd rather be safe than sorry."],
    );
    assert_kind(Some(Kind::Decision), &["I'd rather be in the front row."]);
    let found = read(&[
        ("user", "Help me set up a flu clinic."),
        ("assistant", "Which days?"),
        (
            "user",
            "I think we'll go with Tuesday and Thursday afternoons for the clinic.",
        ),
        ("assistant", "Fine."),
        (
            "user",
            "Every patient waits fifteen minutes after the jab, regardless of history. I'd rather be cautious.",
        ),
        ("assistant", "Noted."),
        ("user", "Thanks."),
    ]);
    assert!(said(&found, "Tuesday and Thursday").is_some_and(|i| i.superseded.is_none()));
    assert!(
        said(&found, "Every patient waits").is_some_and(|i| i.kind == Kind::Rule && !i.overrides)
    );
}

#[test]
fn an_option_said_gone_after_what_announces_it_is_dropped() {
    let found = read(&[
        ("user", "Help me scout locations for the chase."),
        ("assistant", "Rooftop or street?"),
        (
            "user",
            "So we're going with the parking garage rooftop on Spring Street.",
        ),
        ("assistant", "Nice."),
        (
            "user",
            "Update, and I say this with calm: the rooftop is dead. The garage wants fifteen grand a day.",
        ),
        ("assistant", "Ouch."),
        ("user", "Thanks."),
    ]);
    assert_superseded(&found, "garage rooftop");
}

#[test]
fn an_option_dropped_at_the_end_or_with_what_is_kept_is_a_decision() {
    // Nothing after the drop to say what replaces it: the drop is the decision.
    let found = read(&[
        ("user", "Help me plan our family reunion in July."),
        ("assistant", "What do you have in mind?"),
        ("user", "Let's do a boat trip on the Saturday afternoon."),
        ("assistant", "I will look at boat operators."),
        ("user", "Bad news from Uncle Jim. The boat trip is off."),
        ("assistant", "Sorry to hear that."),
        ("user", "Thanks for your help today."),
    ]);
    assert_superseded(&found, "boat trip on the Saturday");
    assert!(said(&found, "The boat trip is off").is_some_and(|i| i.superseded.is_none()));
    // What is kept said after the drop, in the same clause.
    let found = read(&[
        ("user", "help me set up holiday preorders"),
        ("assistant", "Which days?"),
        ("user", "ok lets do pickups tuesday thursday and saturday"),
        ("assistant", "Noted."),
        (
            "user",
            "jess cant work tuesdays. so tuesday pickup is off just thurs and sat. i cant do pickup and bake alone",
        ),
        ("assistant", "Got it."),
        ("user", "thanks"),
    ]);
    assert_superseded(&found, "pickups tuesday thursday");
    assert!(
        said(&found, "tuesday pickup is off")
            .is_some_and(|i| i.kind == Kind::Decision && i.superseded.is_none())
    );
    // An option out of a choice names the choice.
    let found = read(&[
        ("user", "Plan the game's soft launch with me."),
        ("assistant", "Which countries?"),
        (
            "user",
            "We'll do the soft launch in the Philippines and Canada.",
        ),
        ("assistant", "Good pair."),
        (
            "user",
            "Publisher's legal just came back: PH is out of the soft launch. Something about a review.",
        ),
        ("assistant", "Understood."),
        ("user", "Thanks."),
    ]);
    assert_superseded(&found, "Philippines and Canada");
    assert!(said(&found, "PH is out").is_some_and(|i| i.superseded.is_none()));
    for news in [
        "The printer is out of ink, sadly and badly so.",
        "Mum's off work today.",
    ] {
        assert!(
            gone_and_kept(&crate::case::lowercase(news)).is_none_or(|(_, kept)| !kept),
            "{news}"
        );
    }
}

#[test]
fn values_set_on_it_by_a_span_or_beside_the_old_number_replace_it() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Take it to 14 days.",
            "Slide it a week later.",
            "Bring the pressing forward a week.",
        ],
    );
    assert_kind(None, &["Take it to the tip.", "Push back on that a bit."]);
    let found = read(&[
        ("user", "Help me price the charters."),
        ("assistant", "What for the half day?"),
        ("user", "Going with $650 for the half."),
        ("assistant", "Noted."),
        (
            "user",
            "Said 650 leaves money on the table. Bump it to 700.",
        ),
    ]);
    assert_superseded(&found, "$650");
    let found = read(&[
        ("user", "Help me plan the event."),
        ("assistant", "How long should it run?"),
        ("user", "Let's run it 10 days."),
        ("assistant", "Noted."),
        (
            "user",
            "The collab drop slipped, so the calendar's open. Take it to 14 days.",
        ),
    ]);
    assert_superseded(&found, "10 days");
}

#[test]
fn a_date_set_anew_takes_back_only_what_set_a_date() {
    let found = read(&[
        ("user", "Help me plan a client's sleeve."),
        ("assistant", "Happy to."),
        ("user", "Black and grey only, never colour work."),
        ("assistant", "Noted."),
        (
            "user",
            "depends on the client tbh. anyway, should i always send a mock up before the session or nah, feels like extra work",
        ),
        ("assistant", "It helps."),
        (
            "user",
            "nah gonna need more time. push it to the 16th, i'll redraw and send her the mock up by sunday",
        ),
    ]);
    assert!(
        found.iter().all(|i| i.superseded.is_none()),
        "nothing set a date: {found:?}"
    );
}

#[test]
fn a_choice_settled_before_an_emoji_ends_its_sentence() {
    assert_eq!(
        super::words::line_sentences(
            "climate tech it is 🌍🔥 our biggest sponsor does grid batteries"
        ),
        [
            "climate tech it is 🌍🔥",
            "our biggest sponsor does grid batteries"
        ]
    );
    let found = read(&[
        ("user", "Help me plan the hackathon."),
        ("assistant", "Which theme: climate tech, health or fintech?"),
        (
            "user",
            "climate tech it is 🌍🔥 our biggest sponsor does grid batteries so it's a perfect fit",
        ),
    ]);
    assert!(said(&found, "climate tech it is").is_some_and(|i| i.kind == Kind::Decision));
}

#[test]
fn an_old_value_named_without_its_unit_tells_which_decision_moves() {
    // "4:58" names "4:58/km"; the interval session set since is another thing.
    let gone = superseded(&[
        (
            "user",
            "Training for a marathon in December. Need a plan structure.",
        ),
        ("assistant", "Sure."),
        (
            "user",
            "ok MP = 4:58/km. target 3:29:40. tight but that's the point.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "intervals. Tue sessions: 6x1km @ 4:25, 2 min jog rec. start wk 3?",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "update: 10k TT last sat → 46:40. legs fine, engine not. 4:58 is too ambitious \
             for now. resetting MP to 5:05/km (~3:33). can revisit after the HM in wk 12.",
        ),
    ]);
    assert_eq!(
        gone,
        ["ok MP = 4:58/km. target 3:29:40. tight but that's the point."]
    );
}

#[test]
fn a_line_of_the_schedule_is_a_decision_a_later_move_takes_back() {
    let found = read(&[
        ("user", "Help me plan the tender for the depot roof."),
        ("assistant", "Sure."),
        ("user", "Bid close on the 18th."),
        ("assistant", "Noted."),
        (
            "user",
            "Push bid close back to the 20th. Union meeting's on the 19th.",
        ),
    ]);
    assert_superseded(&found, "Bid close on the 18th.");
    // Moved by a span, the newest decision that set a date moves.
    let found = read(&[
        ("user", "Planning a fishing trip for the three of us."),
        ("assistant", "Sure."),
        (
            "user",
            "Crew's 3 of us. Driving down from Chicago. Thinking 10 days on the ground.",
        ),
        ("assistant", "Good."),
        ("user", "Going Oct 10–20. Everybody put in PTO already."),
        ("assistant", "Noted."),
        (
            "user",
            "Work's slammed that week. Slide it a week later. Crew's cool with it.",
        ),
    ]);
    assert_superseded(&found, "Going Oct 10–20.");
    assert!(said(&found, "Crew's 3 of us").is_none_or(|i| i.superseded.is_none()));
}

#[test]
fn a_dated_line_that_asks_reports_or_explains_is_no_decision() {
    for line in [
        "Zero effort in the morning, which she NEEDS before a 7am shift.",
        "Side question: S02E04 had a weird spike at 00:31:10 where people skipped ahead.",
        "rollback at 04:30 — what's the fastest path back",
        "Wedding went great on Saturday.",
    ] {
        let found = reply_to("Anything else?", line);
        assert!(found.is_empty(), "{line}: {found:?}");
    }
    // The task's dates are what is so, not a plan set.
    let found = read(&[("user", "Race on 1 Dec. HM PB 1:39:10 (Apr). Need a plan.")]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_letters_greeting_and_sign_off_are_no_instructions() {
    // Read after a question, "Dear colleague," once settled it, and every letter after
    // "replaced" the one before.
    let letter = |body: &str| format!("Dear colleague,\n\n{body}\n\nKind regards,\nMargaret Ives");
    let (first, second) = (
        letter("Thank you. The exhibition opens on 26 September."),
        letter("Thank you for the draft, it reads well."),
    );
    let found = read(&[
        ("user", "I am preparing an outgoing loan of six works."),
        (
            "assistant",
            "Should a colleague from your staff courier the works, or the shipper's agent?",
        ),
        ("user", first.as_str()),
        ("assistant", "Shall I draft the facility report next?"),
        ("user", second.as_str()),
    ]);
    assert!(said(&found, "Dear colleague").is_none(), "{found:?}");
    assert!(said(&found, "Kind regards").is_none(), "{found:?}");
}

#[test]
fn a_rule_said_past_saying_so_is_a_rule() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "I must stress that every condition report is to be photographed under raking light.",
            "Please note that all vendors must bring their own tables.",
        ],
    );
    assert_kind(None, &["I must say that I always forget my keys."]);
}

#[test]
fn an_old_value_named_beside_a_new_one_tells_which_decision_it_sets() {
    // Two decisions set a time; the message names the one it moves.
    let gone = superseded(&[
        ("user", "Help me plan the school run."),
        ("assistant", "Sure."),
        ("user", "Let's start lessons at 8:10."),
        ("assistant", "Noted."),
        ("user", "First pickup at 6:50."),
        ("assistant", "Noted."),
        ("user", "Never route a bus over the ridge in winter."),
        ("assistant", "Noted."),
        (
            "user",
            "Tried it for a week: 6:50 leaves the kids waiting in the dark. Make it 7:00.",
        ),
    ]);
    assert_eq!(gone, ["First pickup at 6:50."]);
}

#[test]
fn a_choice_closed_as_final_replaces_the_one_before() {
    let found = read(&[
        ("user", "Planning our band's first gig at the youth centre."),
        ("assistant", "Great. Which date works for everyone?"),
        (
            "user",
            "date wise we're locking in sat the 7th, thats when everyone's free",
        ),
        ("assistant", "The 7th it is."),
        ("user", "Never put my phone number on the posters."),
        ("assistant", "Noted."),
        (
            "user",
            "Sat the 21st, final final. the centre emailed to confirm this time",
        ),
    ]);
    assert_superseded(&found, "sat the 7th");
    assert!(
        said(&found, "Sat the 21st").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert_kind(Some(Kind::Decision), &["Butter yellow, final answer."]);
    assert_kind(None, &["Is that final, or a draft?", "Well, the final."]);
}

#[test]
fn news_that_a_thing_changed_makes_the_next_choice_replace_its_own() {
    let found = read(&[
        (
            "user",
            "I'm translating a cosy manga and need a style guide.",
        ),
        ("assistant", "Happy to help. What is the English title?"),
        (
            "user",
            "First, title: we're going with 'Lanterns Over the Harbour'.",
        ),
        ("assistant", "Lovely title."),
        ("user", "Never translate the honorifics."),
        ("assistant", "Noted."),
        (
            "user",
            "(Oh, and the title changed, I forgot to mention.) The editor ran a poll: \
             'Harbour Lights' it is. Shorter, and it fits the logo.",
        ),
    ]);
    assert_superseded(&found, "Lanterns Over the Harbour");
    assert_kind(None, &["I write with a change."]);
    assert!(announces_a_change("i write with a change."));
    assert!(announces_a_change(
        "also a change in the calendar, our engineer is away."
    ));
    assert!(!announces_a_change(
        "the weather changed overnight and everything is wet."
    ));
}

#[test]
fn an_option_said_gone_after_its_reasons_is_dropped() {
    let found = read(&[
        ("user", "I'm planning my students' spring recital."),
        ("assistant", "Lovely. When will you rehearse?"),
        (
            "user",
            "Let's do the Tuesday and the Thursday evenings before, in the hall.",
        ),
        ("assistant", "Two rehearsals in the hall, noted."),
        ("user", "Never list anyone's book level in the program."),
        ("assistant", "Noted."),
        (
            "user",
            "Bad news, dear. The church has the choir in on Tuesdays now, so the Tuesday one \
             is off — we'll just have the Thursday.",
        ),
    ]);
    assert_superseded(&found, "Let's do the Tuesday and the Thursday evenings");
    assert!(
        said(&found, "Never list anyone's book level").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
}

#[test]
fn dictated_speech_with_no_marks_is_read_by_its_parts() {
    let found = read(&[
        (
            "user",
            "hey so im getting my stall ready for the summer markets i sell soap and candles \
             and want help with the whole plan",
        ),
        ("assistant", "Happy to help. What are you making first?"),
        (
            "user",
            "ok pricing so right now the big soap is 9 and the candles are 12 to 20 depending \
             on size and people always ask me for deals at the end of the day and like i never \
             discount the candles they take me a week each so whats even the point but the soap \
             maybe i dunno",
        ),
        ("assistant", "Holding firm on candle prices makes sense."),
        (
            "user",
            "what about wrapping i saw someone at another market use those shiny plastic bags \
             for the soaps but no plastic wrap ever my regulars would riot they bring their \
             tins back for refills and everything and they tell their friends",
        ),
        ("assistant", "Paper and twine it is, then."),
        (
            "user",
            "ok so update on the lavender batch it came out way softer than i want and i dont \
             want fifty bars of mush sitting in my garage so cut that in half and ill figure \
             out the rest of the oil later maybe freeze it or give it to my sister",
        ),
    ]);
    // Each is read in its own words, not the whole message by its strongest one.
    assert_said(&found, "like i never discount the candles", Kind::Rule);
    assert!(said(&found, "ok pricing").is_none(), "{found:?}");
    assert_said(&found, "no plastic wrap ever", Kind::Rule);
    assert_said(&found, "cut that in half", Kind::Decision);
    assert!(
        said(&found, "cut that in half").is_some_and(|i| !i.text.contains("lavender")),
        "{found:?}"
    );
    // A word alone is no instruction.
    assert!(found.iter().all(|i| i.text.contains(' ')), "{found:?}");
    // "so" that says how much cuts nothing, and speech marked with dots is read by them.
    let speech = "she said the kids would love it and she thinks shes so responsible about the \
                  money and so we could start a small fund for the school trip next year with \
                  whatever the bake sale brings in after the costs";
    assert_eq!(
        parts(speech)[1],
        "she thinks shes so responsible about the money"
    );
    assert!(unmarked(speech));
    assert!(!unmarked(&speech.replace(" and so ", "... so ")));
}

#[test]
fn halving_or_doubling_replaces_the_amount_it_names_or_points_at() {
    let found = read(&[
        (
            "user",
            "Help me plan the club's spring ride and the kit order.",
        ),
        ("assistant", "Happy to. How far should the ride be?"),
        (
            "user",
            "Let's do 90k, out along the canal and back over the ridge.",
        ),
        ("assistant", "A solid day out."),
        ("user", "No main roads, full stop."),
        ("assistant", "Understood."),
        ("user", "Jerseys: we'll order 30 in the club colours."),
        ("assistant", "Thirty jerseys, noted."),
        (
            "user",
            "Talked to the newer riders and 90 sounded brutal to most of them. Halve it, mate.",
        ),
        ("assistant", "45k it is."),
        (
            "user",
            "Treasurer says money's tight this quarter. Halve the jersey order.",
        ),
    ]);
    assert_superseded(&found, "Let's do 90k");
    assert_superseded(&found, "we'll order 30 in the club colours");
    assert_said(&found, "Halve it, mate.", Kind::Decision);
    assert!(
        said(&found, "No main roads").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    // The rule a shared word names stays: only a number or two words name one of the
    // other kind.
    let found = read(&[
        ("user", "I'm planning our choir's summer concert."),
        ("assistant", "Lovely. What's fixed so far?"),
        (
            "user",
            "We always close the first half with something quiet.",
        ),
        ("assistant", "A gentle close, noted."),
        (
            "user",
            "Last year half of them wandered back late from the break. Let's halve that, ten \
             minutes is plenty.",
        ),
    ]);
    assert!(
        said(&found, "We always close the first half").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert_kind(
        None,
        &["Double-check the totals.", "Halving a recipe is tricky."],
    );
}

#[test]
fn a_part_cast_anew_replaces_the_one_cast_before() {
    let found = read(&[
        (
            "user",
            "I'm directing our school's spring play and need help planning it.",
        ),
        ("assistant", "Wonderful! Who have you cast so far?"),
        (
            "user",
            "Auditions were amazing. Priya read the witch scene and gave me chills. Priya is \
             our Witch! Still thinking about the rest.",
        ),
        ("assistant", "She sounds perfect."),
        (
            "user",
            "Rehearsals need a plan. Performances are the second weekend of June.",
        ),
        ("assistant", "Noted, I'll plan back from June."),
        (
            "user",
            "Callbacks today and wow. Jonah did the witch monologue and the room froze. Jonah \
             gets Witch. It's the right call, even if it hurts.",
        ),
    ]);
    assert_said(&found, "Priya is our Witch!", Kind::Decision);
    assert_superseded(&found, "Priya is our Witch!");
    assert_said(&found, "Jonah gets Witch.", Kind::Decision);
    assert_said(
        &found,
        "Performances are the second weekend of June.",
        Kind::Decision,
    );
    assert_kind(
        None,
        &[
            "It is our turn.",
            "Lisa is our manager at the bank.",
            "Maya gets tired.",
        ],
    );
    assert_kind(
        Some(Kind::Decision),
        &["So Rosie's in Pomona is our diner."],
    );
}

#[test]
fn a_date_said_instead_replaces_the_date_chosen_whatever_else_is_said() {
    let found = read(&[
        (
            "user",
            "organizing a retirement lunch for our charge nurse.",
        ),
        ("assistant", "Lovely idea. When?"),
        (
            "user",
            "ok lets do wednesday. the 9th. shes on days that week so she'll be around.",
        ),
        ("assistant", "Wednesday the 9th it is."),
        (
            "user",
            "food then. well get trays from the deli. cheap n feeds 30 easy. i called and they \
             said they can label the allergens.",
        ),
        ("assistant", "Deli trays, noted."),
        (
            "user",
            "card hm. maybe. ugh. plot twist. she got moved to nights bc somebody called out \
             sick. so. thursday the 10th instead lol. whatever, shes on days again by then",
        ),
    ]);
    assert_superseded(&found, "ok lets do wednesday. the 9th.");
    assert!(
        said(&found, "get trays from the deli").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert_kind(
        Some(Kind::Decision),
        &["Okay, I think I'm going to stay in Word."],
    );
    assert_kind(Some(Kind::Rule), &["The signs stay in English."]);
}

#[test]
fn where_and_when_the_work_gathers_is_a_decision() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Meet at Bridge Street car park at half eight, there's room to sort tyres.",
            "Let's start on Monday.",
            "ok let's start in Denver.",
        ],
    );
    assert_kind(
        None,
        &[
            "Start at the top of the page.",
            "Let's start at 9?",
            "Leave it at that.",
            "Let's start with the budget.",
        ],
    );
}

#[test]
fn a_schedule_line_names_its_thing_then_its_day_and_a_slot_is_not_the_choice() {
    let found = read(&[
        (
            "user",
            "Drill schedule for the quarter. Help me lay it out.",
        ),
        ("assistant", "Sure. What's first?"),
        (
            "user",
            "Hose advancement drill, Sat wk 2, 0800-1200. Training center loaned us the props.",
        ),
        ("assistant", "Noted for week 2."),
        ("user", "Note: all drills wrap by 2130. Non-negotiable."),
        ("assistant", "Understood."),
        (
            "user",
            "Pump ops at the reservoir, Sat wk 6, 0800-1200. Water dept is good with it.",
        ),
        ("assistant", "Added."),
        (
            "user",
            "ok events. options rn: thurs night market downtown, sat farmers mkt, or the fest",
        ),
    ]);
    assert_said(
        &found,
        "Hose advancement drill, Sat wk 2, 0800-1200.",
        Kind::Decision,
    );
    assert_said(
        &found,
        "Pump ops at the reservoir, Sat wk 6, 0800-1200.",
        Kind::Decision,
    );
    assert!(found.iter().all(|i| i.superseded.is_none()), "{found:?}");
    assert!(said(&found, "options rn").is_none(), "{found:?}");
}

#[test]
fn a_rule_taken_back_is_stated_and_takes_back_the_rule_it_names() {
    let found = read(&[
        ("user", "help me structure the edit of this week's episode"),
        ("assistant", "Sure. Any constraints?"),
        (
            "user",
            "no ad breaks before the first segment ends, people bail early.",
        ),
        ("assistant", "Noted."),
        ("user", "Never put music under the guest."),
        ("assistant", "Understood."),
        (
            "user",
            "yes pls but first - forget what i said about ad breaks before the first segment - \
             the sponsor wants their read up front",
        ),
    ]);
    assert_said(&found, "forget what i said about ad breaks", Kind::Rule);
    assert_superseded(&found, "no ad breaks before the first segment ends");
    assert!(
        said(&found, "Never put music under the guest.").is_some_and(|i| i.superseded.is_none()),
        "{found:?}"
    );
    assert!(revokes("Ignore what I said about tabs."));
    assert!(!revokes("I forget what she said about the venue."));
}

#[test]
fn a_decision_said_in_the_passive_is_a_decision() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "The meeting start time has been set at 6:30 p.m., so that the closed session may \
             be convened.",
            "Accordingly, it has been concluded that the item is to be moved to New Business.",
            "With regard to the Parks item: the budget amendment has been determined to be \
             placed on the consent agenda.",
        ],
    );
    assert_kind(
        None,
        &[
            "My flight has been cancelled.",
            "Has it been decided yet?",
            "Work has been slow, so I have been set back a week.",
        ],
    );
}

#[test]
fn the_number_named_and_no_one_working_without_a_condition() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "nah 165 is the number, feels friendlier and still covers my guys.",
            "Rosewood is the winner.",
        ],
    );
    assert_kind(
        None,
        &[
            "That is the number we got from the vet.",
            "Nothing works without coffee.",
        ],
    );
    assert_kind(
        Some(Kind::Rule),
        &["Nobody works on the deck edge without a tie-off."],
    );
}

#[test]
fn what_is_left_out_after_never_and_what_they_insist() {
    assert_kind(
        Some(Kind::Rule),
        &[
            "Though actually, no, thinking about it, I want local or reclaimed stone only, \
             never imported, because the carbon side matters to me.",
            "Network stuff: they insist the midroll lands between 18:00 and 22:00 in every \
             episode.",
            "Looks right but whatever we end up with, it's got to fit on one page.",
        ],
    );
    assert_kind(
        None,
        &[
            "Long Meadow, 35 acre, permanent grass for the ewes, never been ploughed in my time.",
            "Write it however you like, never mind the jargon.",
            "I've always done it in my head and it's got to where I need it written down.",
        ],
    );
}

#[test]
fn a_rule_said_aside_in_brackets() {
    let found = read(&[
        ("user", "Help me plan my guest spot."),
        ("assistant", "Sure. What about the schedule?"),
        (
            "user",
            "Nah. Schedule next. Sessions are long, I do big pieces (two clients a day max, \
             my wrist's not what it was).",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "Ha, my partner is off playtest duty (although she'll still be the first to try \
             every new version). It was so-ordered on 12 January (ECF No. 41).",
        ),
    ]);
    assert_said(&found, "two clients a day max", Kind::Rule);
    assert!(said(&found, "playtest").is_none(), "{found:?}");
    assert!(said(&found, "ECF").is_none(), "{found:?}");
}

#[test]
fn choices_on_reflection_counted_enough_and_taken_up() {
    assert_kind(
        Some(Kind::Decision),
        &[
            "Upon reflection, the fire and rehire code should take the lead position: several \
             of our larger clients have change programmes under way.",
            "This is close, though I'm now wavering on the tree; a colleague showed me a maple, \
             so I think the Acer griseum gets the spot now, since the client will see it from \
             the kitchen all winter.",
            "Two guys is plenty for that one.",
            "ok so bad news time to pet is like 30 something a month and i only have fourteen \
             regular clients so were just gonna use google calendar and a google form for now",
            "Perfecto, the five pages you say, we do that.",
        ],
    );
    assert_kind(
        None,
        &[
            "Upon reflection, I am persuaded by your earlier remark concerning first-time \
             applicants.",
            "Two weeks is plenty of time.",
            "We'll be there all day.",
            "you're a lifesaver seriously this would've taken me all weekend",
        ],
    );
}

#[test]
fn bumped_up_by_an_amount_replaces_the_value() {
    let turns = [
        ("user", "Help me set my pet-sitting prices."),
        ("assistant", "What do you charge for a walk?"),
        ("user", "ok lets go with 22 for a half hour walk"),
        ("assistant", "Noted, $22 for a half-hour walk."),
        (
            "user",
            "honestly im still underpricing myself for the short walks so bump that up three \
             bucks",
        ),
    ];
    assert_superseded(&read(&turns), "22 for a half hour walk");
    // "Bump it up to 12 participants" sets the value; it scales nothing.
    assert_eq!(decision::scales("bump it up to 12 participants"), None);
    assert!(decision::scales("so bump that up three bucks").is_some());
}

#[test]
fn a_date_after_its_label_and_a_count_offered_in_prose() {
    let found = read(&[
        ("user", "Help me plan our bouldering comp."),
        ("assistant", "Sure. When is it?"),
        (
            "user",
            "Date — Sat 15th March, already cleared it with the owners.",
        ),
        ("assistant", "Great, noted."),
        ("user", "Day: Monday was awful."),
    ]);
    assert_said(&found, "Sat 15th March", Kind::Decision);
    assert!(said(&found, "Monday was awful").is_none(), "{found:?}");
    let asked = "Common block lengths are 8, 10 or 12 weeks. Shorter blocks suit crews already \
                 fit. How long do you want to go?";
    assert_said(
        &reply_to(asked, "Eight weeks. Lay it out."),
        "Eight weeks",
        Kind::Decision,
    );
    assert!(reply_to(asked, "Seven weeks. Lay it out.").is_empty());
}

#[test]
fn a_list_item_stressed_after_it_with_reasons() {
    let found = read(&[
        ("user", "Help me write our helpdesk support policy."),
        ("assistant", "Sure. What targets do you have?"),
        (
            "user",
            "Targets:\n1. P1: first response inside 15 minutes, any hour. That one's \
             non-negotiable, the CFO's laptop died two days before quarter close last year.\n\
             2. P2 and P3, suggest something sensible for 6 people.",
        ),
    ]);
    assert_said(&found, "first response inside 15 minutes", Kind::Rule);
}

#[test]
fn a_place_set_and_sealed_with_done() {
    assert_kind(
        Some(Kind::Decision),
        &["Kickoff watch party in the school library, done."],
    );
    assert_kind(
        None,
        &["ok that's the intro, done.", "I finished the draft, done."],
    );
    let named = reply_to(
        "Happy to help with the listing copy.",
        "Love the draft. Saltmarsh. That's what it's called now.",
    );
    assert_said(
        &named,
        "Saltmarsh. That's what it's called now.",
        Kind::Decision,
    );
}
