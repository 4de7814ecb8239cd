//! Rule variants: the four switches of docs/RULES.md section 7, the named
//! presets, and their textual forms.

use std::fmt;
use std::str::FromStr;

/// How soldiers may step outside the fortress (docs/RULES.md section 3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum SoldierRule {
    /// Every step strictly lowers the distance to the fortress.
    Closer,
    /// Every step goes up a rank (or sideways along a5-b5-c5 / g5-f5-e5).
    Forward,
}

/// What happens when a capture is available (docs/RULES.md section 5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum CaptureRule {
    /// Taking too few soldiers is a fault; the soldiers may huff an offender.
    Huff,
    /// Taking too few soldiers is illegal.
    Mandatory,
    /// Capturing is optional and never punished.
    Free,
}

/// Who wins when the officers to move cannot move (docs/RULES.md section 6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum TrappedRule {
    /// Trapping the officers wins for the soldiers.
    SoldiersWin,
    /// Trapping the officers loses for the soldiers.
    SoldiersLose,
}

/// A rule variant: the four switches of docs/RULES.md section 7.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Variant {
    /// Soldier step rule.
    pub soldiers: SoldierRule,
    /// Capture duty.
    pub capture: CaptureRule,
    /// Whether a capture must take the most soldiers possible (`max = on`).
    pub max: bool,
    /// Result of trapped officers.
    pub trapped: TrappedRule,
}

/// Error parsing a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// Neither a preset name nor a switch list.
    #[error(
        "unknown variant '{}': expected a preset (assaut, assaut-mdj, asalto, assault) or soldiers=..,capture=..,max=..,trapped=..",
        .0.escape_debug()
    )]
    Unknown(String),
    /// A switch name that does not exist.
    #[error(
        "unknown switch '{}' in variant: the switches are soldiers, capture, max, trapped",
        .0.escape_debug()
    )]
    UnknownSwitch(String),
    /// A switch value that does not exist.
    #[error("bad value '{}' for switch {switch}: expected {expected}", .value.escape_debug())]
    BadValue {
        /// The switch.
        switch: &'static str,
        /// The value given.
        value: String,
        /// The values allowed.
        expected: &'static str,
    },
    /// A switch given twice.
    #[error("switch {0} given twice in variant")]
    Duplicate(&'static str),
    /// A switch left out.
    #[error("variant is missing switch {0} (give all four: soldiers, capture, max, trapped)")]
    Missing(&'static str),
}

impl Variant {
    /// `assaut`: the main rules of the French sheet *Assaut* (docs/RULES.md
    /// section 11).
    pub const ASSAUT: Variant = Variant {
        soldiers: SoldierRule::Closer,
        capture: CaptureRule::Huff,
        max: true,
        trapped: TrappedRule::SoldiersWin,
    };
    /// `assaut-mdj`: the "Variante MdJ" of the French sheet *Assaut*.
    pub const ASSAUT_MDJ: Variant = Variant {
        soldiers: SoldierRule::Closer,
        capture: CaptureRule::Mandatory,
        max: true,
        trapped: TrappedRule::SoldiersLose,
    };
    /// `asalto`: the English description *Asalto* (after Provenzo).
    pub const ASALTO: Variant = Variant {
        soldiers: SoldierRule::Closer,
        capture: CaptureRule::Huff,
        max: false,
        trapped: TrappedRule::SoldiersWin,
    };
    /// `assault`: the French sheets *Assault* and *Assaut, jeu de la
    /// citadelle*.
    pub const ASSAULT: Variant = Variant {
        soldiers: SoldierRule::Forward,
        capture: CaptureRule::Huff,
        max: true,
        trapped: TrappedRule::SoldiersWin,
    };

    /// The named presets with their sources.
    pub const PRESETS: [(&'static str, Variant, &'static str); 4] = [
        (
            "assaut",
            Variant::ASSAUT,
            "\"Assaut\", main rules (French, before 1914)",
        ),
        (
            "assaut-mdj",
            Variant::ASSAUT_MDJ,
            "\"Assaut\", its \"Variante MdJ\"",
        ),
        (
            "asalto",
            Variant::ASALTO,
            "\"Asalto\" (English, after Provenzo 1981)",
        ),
        (
            "assault",
            Variant::ASSAULT,
            "\"Assault\" and \"Assaut, jeu de la citadelle\" (French editions)",
        ),
    ];

    /// Every combination of the switches (24 variants).
    pub fn all() -> Vec<Variant> {
        let mut out = Vec::with_capacity(24);
        for soldiers in [SoldierRule::Closer, SoldierRule::Forward] {
            for capture in [CaptureRule::Huff, CaptureRule::Mandatory, CaptureRule::Free] {
                for max in [true, false] {
                    for trapped in [TrappedRule::SoldiersWin, TrappedRule::SoldiersLose] {
                        out.push(Variant {
                            soldiers,
                            capture,
                            max,
                            trapped,
                        });
                    }
                }
            }
        }
        out
    }

    /// Whether the soldiers may huff an officer after a fault (`capture =
    /// huff`): the only way a game loses an officer, so the only variants
    /// with one-officer positions past the start.
    pub(crate) fn huffs(&self) -> bool {
        self.capture == CaptureRule::Huff
    }

    /// Whether a move that takes too few soldiers is illegal (`capture =
    /// mandatory`).
    pub(crate) fn captures_are_mandatory(&self) -> bool {
        self.capture == CaptureRule::Mandatory
    }

    /// Whether an available capture binds the officers at all: a move that
    /// takes too few soldiers is a fault (`huff`) or illegal (`mandatory`);
    /// under `capture = free` it is neither.
    pub(crate) fn has_capture_duty(&self) -> bool {
        self.capture != CaptureRule::Free
    }

    /// The preset name, if this variant is a preset.
    pub fn preset_name(&self) -> Option<&'static str> {
        Variant::PRESETS
            .iter()
            .find(|(_, v, _)| v == self)
            .map(|(n, _, _)| *n)
    }

    /// The switch form, e.g. `soldiers=closer,capture=huff,max=on,trapped=soldiers-win`.
    pub fn switches(&self) -> String {
        format!(
            "soldiers={},capture={},max={},trapped={}",
            self.soldiers.name(),
            self.capture.name(),
            if self.max { "on" } else { "off" },
            self.trapped.name()
        )
    }

    /// A name safe for a directory: the preset name, or the switch values
    /// joined by `-` (e.g. `closer-huff-on-soldiers-win`).
    pub fn slug(&self) -> String {
        match self.preset_name() {
            Some(n) => n.to_string(),
            None => format!(
                "{}-{}-{}-{}",
                self.soldiers.name(),
                self.capture.name(),
                if self.max { "max" } else { "any" },
                self.trapped.name()
            ),
        }
    }

    /// The soldier step table (outside and inside the fortress).
    #[inline]
    pub fn soldier_moves(&self) -> &'static [crate::board::Bitboard; crate::board::NUM_POINTS] {
        match self.soldiers {
            SoldierRule::Closer => &crate::board::CLOSER_MOVES,
            SoldierRule::Forward => &crate::board::FORWARD_MOVES,
        }
    }

    /// Longest soldier path from each point into the fortress.
    #[inline]
    pub(crate) fn progress(&self) -> &'static [u8; crate::board::NUM_POINTS] {
        match self.soldiers {
            SoldierRule::Closer => &crate::board::CLOSER_PROGRESS,
            SoldierRule::Forward => &crate::board::FORWARD_PROGRESS,
        }
    }

    /// Plain-language description of the switches, one line each.
    pub fn describe(&self) -> Vec<String> {
        vec![
            format!(
                "soldiers={}: {}",
                self.soldiers.name(),
                match self.soldiers {
                    SoldierRule::Closer =>
                        "outside the fortress a soldier step must strictly lower its distance to the fortress",
                    SoldierRule::Forward =>
                        "outside the fortress a soldier steps up a rank (straight or diagonal), or sideways a5-b5-c5 / g5-f5-e5",
                }
            ),
            format!(
                "capture={}: {}",
                self.capture.name(),
                match self.capture {
                    CaptureRule::Huff =>
                        "a move taking too few soldiers is legal but a fault: the soldiers may then remove ('huff') an offending officer",
                    CaptureRule::Mandatory => "a move taking too few soldiers is illegal",
                    CaptureRule::Free => "capturing is optional and never punished",
                }
            ),
            format!(
                "max={}: {}",
                if self.max { "on" } else { "off" },
                if self.max {
                    "a capture must take the most soldiers any officer could take"
                } else {
                    "any capture is enough; only a step while a capture exists falls short"
                }
            ),
            format!(
                "trapped={}: {}",
                self.trapped.name(),
                match self.trapped {
                    TrappedRule::SoldiersWin => "officers to move with no legal move lose",
                    TrappedRule::SoldiersLose => "officers to move with no legal move win",
                }
            ),
        ]
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant::ASSAUT
    }
}

impl SoldierRule {
    /// The switch value's name.
    pub fn name(self) -> &'static str {
        match self {
            SoldierRule::Closer => "closer",
            SoldierRule::Forward => "forward",
        }
    }
}

impl CaptureRule {
    /// The switch value's name.
    pub fn name(self) -> &'static str {
        match self {
            CaptureRule::Huff => "huff",
            CaptureRule::Mandatory => "mandatory",
            CaptureRule::Free => "free",
        }
    }
}

impl TrappedRule {
    /// The switch value's name.
    pub fn name(self) -> &'static str {
        match self {
            TrappedRule::SoldiersWin => "soldiers-win",
            TrappedRule::SoldiersLose => "soldiers-lose",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(n) => f.write_str(n),
            None => f.write_str(&self.switches()),
        }
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some((_, v, _)) = Variant::PRESETS.iter().find(|(n, _, _)| *n == s) {
            return Ok(*v);
        }
        if !s.contains('=') {
            return Err(VariantError::Unknown(s.to_string()));
        }
        let mut soldiers = None;
        let mut capture = None;
        let mut max = None;
        let mut trapped = None;
        fn set<T>(slot: &mut Option<T>, v: T, name: &'static str) -> Result<(), VariantError> {
            if slot.replace(v).is_some() {
                return Err(VariantError::Duplicate(name));
            }
            Ok(())
        }
        for part in s.split(',') {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| VariantError::Unknown(s.to_string()))?;
            let (k, v) = (k.trim(), v.trim());
            let bad = |switch, expected| VariantError::BadValue {
                switch,
                value: v.to_string(),
                expected,
            };
            match k {
                "soldiers" => {
                    let r = match v {
                        "closer" => SoldierRule::Closer,
                        "forward" => SoldierRule::Forward,
                        _ => return Err(bad("soldiers", "closer or forward")),
                    };
                    set(&mut soldiers, r, "soldiers")?;
                }
                "capture" => {
                    let r = match v {
                        "huff" => CaptureRule::Huff,
                        "mandatory" => CaptureRule::Mandatory,
                        "free" => CaptureRule::Free,
                        _ => return Err(bad("capture", "huff, mandatory or free")),
                    };
                    set(&mut capture, r, "capture")?;
                }
                "max" => {
                    let r = match v {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad("max", "on or off")),
                    };
                    set(&mut max, r, "max")?;
                }
                "trapped" => {
                    let r = match v {
                        "soldiers-win" => TrappedRule::SoldiersWin,
                        "soldiers-lose" => TrappedRule::SoldiersLose,
                        _ => return Err(bad("trapped", "soldiers-win or soldiers-lose")),
                    };
                    set(&mut trapped, r, "trapped")?;
                }
                other => return Err(VariantError::UnknownSwitch(other.to_string())),
            }
        }
        Ok(Variant {
            soldiers: soldiers.ok_or(VariantError::Missing("soldiers"))?,
            capture: capture.ok_or(VariantError::Missing("capture"))?,
            max: max.ok_or(VariantError::Missing("max"))?,
            trapped: trapped.ok_or(VariantError::Missing("trapped"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip() {
        for (name, v, _) in Variant::PRESETS {
            assert_eq!(name.parse::<Variant>().unwrap(), v);
            assert_eq!(v.to_string(), name);
            assert_eq!(v.switches().parse::<Variant>().unwrap(), v);
        }
    }

    #[test]
    fn all_24_distinct_and_round_trip() {
        let all = Variant::all();
        assert_eq!(all.len(), 24);
        for v in &all {
            assert_eq!(v.to_string().parse::<Variant>().unwrap(), *v);
        }
        let mut slugs: Vec<_> = all.iter().map(|v| v.slug()).collect();
        slugs.sort();
        slugs.dedup();
        assert_eq!(slugs.len(), 24);
    }

    #[test]
    fn switch_order_free_and_preset_printed() {
        let v: Variant = "trapped=soldiers-win,max=on,capture=huff,soldiers=closer"
            .parse()
            .unwrap();
        assert_eq!(v.to_string(), "assaut");
    }

    #[test]
    fn errors() {
        assert!(matches!(
            "nope".parse::<Variant>(),
            Err(VariantError::Unknown(_))
        ));
        assert!(matches!(
            "soldiers=closer,capture=huff,max=on,trapped=soldiers-win,colour=red"
                .parse::<Variant>(),
            Err(VariantError::UnknownSwitch(_))
        ));
        assert!(matches!(
            "soldiers=closer,capture=huff,max=maybe,trapped=soldiers-win".parse::<Variant>(),
            Err(VariantError::BadValue { .. })
        ));
        assert!(matches!(
            "soldiers=closer,capture=huff,max=on".parse::<Variant>(),
            Err(VariantError::Missing("trapped"))
        ));
        assert!(matches!(
            "soldiers=closer,soldiers=forward".parse::<Variant>(),
            Err(VariantError::Duplicate("soldiers"))
        ));
    }
}
