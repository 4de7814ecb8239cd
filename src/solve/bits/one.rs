//! The bit-set solver on tiers with one officer: a set of placements of a
//! slice is one bitboard (the officer's points), not a matrix.
//!
//! With one officer a slice holds as many placements as free points (a
//! few dozen positions), so the per-point rows of [`super::Mat`] (a bit
//! each) would cost 33 words per set for what one word holds. The sets,
//! the exits and the fixed point are those of the two-officer solver
//! read for one officer: an officer step is a neighbour spread
//! ([`board::neighbours`]), there is no other officer to be in the way
//! and no huff (with one officer the huff rule leaves no step with a
//! capture on: [`Duty::NoStep`]).

use super::{
    Duty, Passes, Spread, Steps, Walk, code_o, code_s, codes_by, each, fixed_point, slice_layout,
};
use crate::Value;
use crate::board::{self, Bitboard, OUTSIDE};
use crate::index::{TierKey, fortress_bits, fortress_mask};
#[cfg(test)]
use crate::planted::{Fault, planted};
use crate::position::Side;
use crate::rules::{CaptureRule, Variant};
use crate::solve::SolveError;
use crate::solve::lookup::Lookup;
use crate::solve::retro::{Target, Targets};

/// The per-slice sets of a one-officer tier, a bitboard each (bit `a`:
/// the officer on `a`).
#[derive(Default)]
struct Slices {
    /// Fortress masks in rank order.
    masks: Vec<u16>,
    /// Free points of each slice: its placements.
    free: Vec<u64>,
    /// Officers to move: a capture wins / a capture does not lose.
    ew_o: Vec<u64>,
    enl_o: Vec<u64>,
    /// Soldiers to move: a step out of the tier wins / does not lose.
    ew_s: Vec<u64>,
    enl_s: Vec<u64>,
    /// Soldiers to move with some move (a loss without one is a loss in 0).
    move_s: Vec<u64>,
    /// Officers to move without a legal move.
    stuck_o: Vec<u64>,
    /// The officer could capture.
    cap: Vec<u64>,
    /// Fortress steps between the slices.
    steps: Steps,
    /// Scratch kept from tier to tier: each point's capture walk.
    walks: Vec<Walk>,
    /// The values.
    win_o: Vec<u64>,
    loss_o: Vec<u64>,
    win_s: Vec<u64>,
    loss_s: Vec<u64>,
}

/// A one-officer tier being solved.
struct Solve<'v> {
    key: TierKey,
    variant: &'v Variant,
    duty: Duty,
    sl: Slices,
}

thread_local! {
    /// Each thread's [`Slices`], kept from one tier to the next.
    static SLICES: std::cell::RefCell<Slices> = std::cell::RefCell::new(Slices::default());
}

/// [`super::solve_tier_wdl`] on a tier with one officer, under `duty`.
pub(super) fn solve_tier_wdl(
    key: &TierKey,
    look: &mut Lookup<'_>,
    duty: Duty,
) -> Result<Vec<u16>, SolveError> {
    debug_assert!(key.n == 1 && duty != Duty::Huff);
    let variant = *look.variant();
    let sl = SLICES.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let mut s = Solve {
        key: *key,
        variant: &variant,
        duty,
        sl,
    };
    s.layout();
    s.soldier_exits(look)?;
    s.officer_exits(look)?;
    fixed_point(&mut s);
    #[allow(unused_mut)]
    let mut codes = s.codes();
    SLICES.with(|c| *c.borrow_mut() = s.sl);
    #[cfg(test)]
    crate::planted::relabel_draws(&mut codes);
    Ok(codes)
}

/// The officers-to-move slice of `target` with soldiers on `fortress` (as
/// reached, in this tier's orientation): the points where the officer
/// loses and where it does not win, in this tier's orientation (none off
/// the slice's free points).
fn decode(target: &Target, fortress: Bitboard) -> Result<(u64, u64), SolveError> {
    let (first, free_there) = target.slice(fortress_mask(fortress));
    let np = free_there.count_ones();
    let (mut lost, mut not_won) = (0u64, 0u64);
    for at in (0..np).step_by(32) {
        let count = (np - at).min(32);
        let (w, l) = target.slice_classes(first, at, count)?;
        lost |= u64::from(l) << at;
        not_won |= u64::from(!w & (u32::MAX >> (32 - count))) << at;
    }
    let spread = Spread::new(free_there);
    let (lost, not_won) = (spread.of(lost), spread.of(not_won));
    Ok(if target.mirrored() {
        (board::mirror_bb(lost), board::mirror_bb(not_won))
    } else {
        (lost, not_won)
    })
}

impl Solve<'_> {
    /// The slices, their placements and fortress steps.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn layout(&mut self) {
        let sl = &mut self.sl;
        let masks = slice_layout(&self.key, &mut sl.masks, &mut sl.free);
        let m = masks.len();
        for v in [
            &mut sl.ew_o,
            &mut sl.enl_o,
            &mut sl.ew_s,
            &mut sl.enl_s,
            &mut sl.move_s,
            &mut sl.stuck_o,
            &mut sl.cap,
            &mut sl.win_o,
            &mut sl.loss_o,
            &mut sl.win_s,
            &mut sl.loss_s,
        ] {
            v.clear();
            v.resize(m, 0);
        }
        sl.steps.layout(masks, self.variant.soldier_moves());
        // Soldiers with a fortress step have a move.
        for fi in 0..m {
            for &fj in sl.steps.from(fi) {
                sl.move_s[fi] |= sl.free[fj as usize] & sl.free[fi];
            }
        }
    }

    /// Soldier steps from outside the fortress: exits of the
    /// soldiers-to-move positions, each step's target slice read once.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn soldier_exits(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let key = self.key;
        let table = self.variant.soldier_moves();
        let mut result = Ok(());
        each(key.outside, |s| {
            each(table[s] & !key.outside, |t| {
                if result.is_ok() {
                    result = self.soldier_step(look, s, t);
                }
            });
        });
        result
    }

    /// The exits of the soldier step `s -> t` (from outside).
    fn soldier_step(
        &mut self,
        look: &mut Lookup<'_>,
        s: usize,
        t: usize,
    ) -> Result<(), SolveError> {
        let key = self.key;
        let outside = key.outside & !(1 << s) | (1 << t) & OUTSIDE;
        let tk = TierKey { outside, ..key };
        let target = if tk.m() == 9 {
            None
        } else {
            Some(Target::new(&tk, Side::Officers, look)?)
        };
        let sl = &mut self.sl;
        for fi in 0..sl.masks.len() {
            let fortress = fortress_bits(sl.masks[fi]);
            if fortress & 1 << t != 0 {
                continue;
            }
            let free = sl.free[fi] & !(1u64 << t);
            let (lost, not_won) = match &target {
                // The step fills the fortress: a win.
                None => (free, free),
                Some(target) => decode(target, fortress | (1 << t) & board::FORTRESS)?,
            };
            sl.ew_s[fi] |= lost & free;
            sl.enl_s[fi] |= not_won & free;
            sl.move_s[fi] |= free;
        }
        Ok(())
    }

    /// Captures: exits of the officers-to-move positions, the capture duty
    /// sets, and the positions without a legal move.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn officer_exits(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let key = self.key;
        let mut targets = Targets::default();
        let mut walks = std::mem::take(&mut self.sl.walks);
        walks.resize_with(board::NUM_POINTS, Walk::default);
        for fi in 0..self.sl.masks.len() {
            let soldiers = key.outside | fortress_bits(self.sl.masks[fi]);
            let free = self.sl.free[fi];
            let (mut cap, mut xw, mut xnl, mut has) = (0u64, 0u64, 0u64, 0u64);
            let mut err = Ok(());
            each(free, |a| {
                if err.is_err() {
                    return;
                }
                // Walked alone: every end is a capture with no other officer.
                walks[a].update::<true>(a, soldiers);
                let ends = &walks[a].ends;
                let Some(most) = ends.iter().map(|e| e.1.count_ones()).max() else {
                    return;
                };
                cap |= 1 << a;
                for &(to, taken, _) in ends {
                    let eq = taken.count_ones() == most;
                    match self.capture(to as usize, taken, eq, soldiers, &mut targets, look) {
                        Ok((w, nl, h)) => {
                            xw |= u64::from(w) << a;
                            xnl |= u64::from(nl) << a;
                            has |= u64::from(h) << a;
                        }
                        Err(e) => err = Err(e),
                    }
                }
            });
            err?;
            let sl = &mut self.sl;
            sl.cap[fi] = cap;
            sl.ew_o[fi] = xw;
            sl.enl_o[fi] = xnl;
            // Without a capture (then no capture duty either), a position
            // is stuck when it has no step.
            sl.stuck_o[fi] = free & !has & !board::neighbours(free);
        }
        self.sl.walks = walks;
        Ok(())
    }

    /// One capture (ending on `to`, taking `taken`; `eq`: as many as the
    /// officer can take): whether it is a legal move that wins for the
    /// officers, one that does not lose, and a legal move at all.
    fn capture(
        &self,
        to: usize,
        taken: Bitboard,
        eq: bool,
        soldiers: Bitboard,
        targets: &mut Targets,
        look: &mut Lookup<'_>,
    ) -> Result<(bool, bool, bool), SolveError> {
        let key = self.key;
        // A capture of fewer than the most is no move under `mandatory`;
        // under `huff` it is one that hands the soldiers the huff of the
        // only officer (never a win or a draw for the officers).
        let (plain, legal) = match (self.variant.max, self.variant.capture) {
            (false, _) | (_, CaptureRule::Free) => (true, true),
            (true, CaptureRule::Mandatory) => (eq, eq),
            (true, CaptureRule::Huff) => (eq, true),
        };
        if !legal {
            return Ok((false, false, false));
        }
        let k_after = key.k - taken.count_ones() as u8;
        if k_after < 9 {
            // Fewer than nine soldiers left: the officers win.
            return Ok((true, true, true));
        }
        let outside = key.outside & !taken;
        let tk = TierKey {
            k: k_after,
            outside,
            ..key
        };
        let target = targets.get(outside | u64::from(k_after) << 40, &tk, look)?;
        let (first, free_there) = target.slice(fortress_mask(soldiers & !taken));
        let code = target.code_at(first, free_there, target.orient(1 << to))?;
        // The soldiers to move after the capture: their win or loss.
        let (ws, ls) = (code & 1 == 1, code != 0 && code & 1 == 0);
        Ok((plain && ls, plain && !ws, true))
    }

    /// The value codes in index order.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn codes(&self) -> Vec<u16> {
        let sl = &self.sl;
        codes_by(&self.key, |officers, soldiers| {
            let mut i = 0;
            for fi in 0..sl.masks.len() {
                let (wo, lo, so) = (sl.win_o[fi], sl.loss_o[fi], sl.stuck_o[fi]);
                let (ws, ls, ms) = (sl.win_s[fi], sl.loss_s[fi], sl.move_s[fi]);
                each(sl.free[fi], |a| {
                    officers[i] = code_o(wo >> a & 1, lo >> a & 1, so >> a & 1);
                    soldiers[i] = code_s(ws >> a & 1, ls >> a & 1, ms >> a & 1);
                    i += 1;
                });
            }
            i
        })
    }
}

/// The points `a` with `a % 7 == 0` (a planted fault drops their steps).
#[cfg(test)]
const SEVENTHS: u64 = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28;

impl Passes for Solve<'_> {
    fn slices(&self) -> usize {
        self.sl.masks.len()
    }

    fn steps(&self) -> &Steps {
        &self.sl.steps
    }

    fn update_officers(&mut self, fi: usize) -> bool {
        let sl = &mut self.sl;
        let free = sl.free[fi];
        let (ls, ws) = (sl.loss_s[fi], sl.win_s[fi]);
        #[allow(unused_mut)]
        let mut cap = sl.cap[fi];
        #[cfg(test)]
        if planted(Fault::CaptureDutyIgnored) {
            cap = 0;
        }
        // An officer step: to a neighbour (in the slice, as the sets are).
        let steps_from = match self.duty {
            Duty::None => free,
            _ => free & !cap,
        };
        #[allow(unused_mut)]
        let mut win_step = board::neighbours(ls) & steps_from;
        #[cfg(test)]
        if planted(Fault::ParentNotNotified) {
            win_step &= !SEVENTHS;
        }
        // Children that are not soldiers' wins.
        let nonwin_step = board::neighbours(free & !ws) & steps_from;
        let stuck_wins = crate::solve::stuck_value(Side::Officers, self.variant) == Value::Win(0);
        let stuck_win = if stuck_wins { sl.stuck_o[fi] } else { 0 };
        let w = sl.ew_o[fi] | win_step | stuck_win;
        let l = free & !(sl.enl_o[fi] | nonwin_step | stuck_win);
        let changed = w != sl.win_o[fi] || l != sl.loss_o[fi];
        sl.win_o[fi] = w;
        sl.loss_o[fi] = l;
        changed
    }

    fn update_soldiers(&mut self, fi: usize) -> bool {
        let sl = &mut self.sl;
        let free = sl.free[fi];
        let (mut w, mut nl) = (sl.ew_s[fi], sl.enl_s[fi]);
        for &fj in sl.steps.from(fi) {
            let fj = fj as usize;
            w |= sl.loss_o[fj];
            nl |= sl.free[fj] & !sl.win_o[fj];
        }
        let (w, l) = (w & free, free & !nl);
        let changed = w != sl.win_s[fi] || l != sl.loss_s[fi];
        sl.win_s[fi] = w;
        sl.loss_s[fi] = l;
        changed
    }
}
