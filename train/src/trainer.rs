//! Fitting the evaluation's weights to positions with known outcomes.
//!
//! Every position carries the game's result and the search's score. The
//! model predicts the side to move's expected points as `sigmoid(eval / K)`;
//! the target blends the result with the same squashing of the search score,
//! `lambda * result + (1 - lambda) * sigmoid(score / K)`, and the loss is the
//! cross-entropy between the two (logistic regression: the model is linear
//! in its weights). `K` is fitted first, as the scale that makes the search
//! scores the best predictors of the results. The weights then follow the
//! gradient in mini-batches with Adam, plus a small L2 pull of the pattern
//! weights towards zero (rare configurations stay near zero instead of
//! fitting noise); the epoch with the lowest validation loss is kept.
//!
//! The features are the evaluation's own (`eval::hand::features`,
//! `eval::pattern::for_each_config`, `eval::kings::features`), read in
//! floating point; the result is rounded to the evaluation's fixed point
//! at the end.

use crate::record::GameRecord;
use std::time::Instant;
use tama_engine::eval::hand::{self, TERMS};
use tama_engine::eval::kings::{self, KingTable};
use tama_engine::eval::pattern::{self, Layout, PatternParams, PatternTable, REGIONS};
use tama_engine::eval::{endgame, Model, VariantWeights};
use tama_engine::position::Position;
use tama_engine::rng::Rng;
use tama_engine::rules::Color;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub position: Position,
    /// The search's score, side to move's view, centi-men.
    pub score: i16,
    /// The game's points for the side to move: 1, 1/2 or 0.
    pub result: f32,
    /// The endgame databases' value for the side to move (1, 1/2 or 0),
    /// where they hold the position and training was given them
    /// (`tables`): the target, instead of the blend of score and result.
    pub exact: Option<f32>,
}

impl Sample {
    /// Every position of `games`.
    pub fn of_games(games: &[GameRecord]) -> Vec<Sample> {
        games
            .iter()
            .flat_map(|g| {
                g.positions.iter().map(move |r| Sample {
                    position: r.position,
                    score: r.score,
                    result: g.result.points_for(r.position.side_to_move()) as f32,
                    exact: None,
                })
            })
            .collect()
    }
}

/// How to fit (the flags of `tama train`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// What to fit: the hand terms, or the hand terms and the patterns.
    pub model: Model,
    /// Passes over the training set.
    pub epochs: usize,
    /// Weight of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// Adam's step, centi-men; it falls linearly to a tenth by the last epoch.
    pub learning_rate: f64,
    /// Positions per step.
    pub batch: usize,
    /// L2 pull of the pattern and king weights, per sample.
    pub l2: f64,
    /// Threads computing the gradient.
    pub threads: usize,
    /// Shuffles the batches.
    pub seed: u64,
    /// Keep the hand weights as they start (fit only the patterns).
    pub freeze_hand: bool,
    /// Keep the pattern weights as they start. With `freeze_hand`, a
    /// `kings` fit moves the king terms alone: positions drawn from the
    /// endgame databases (`tables::draw`) teach the material balances
    /// without pulling the men's patterns towards boards no game reaches.
    pub freeze_patterns: bool,
    /// Hand terms held at a value (index in `hand::NAMES`, centi-men) while
    /// the rest is fitted. Tempo is the one that needs it: fitted freely,
    /// the Armenian set gives the side to move 24 cm and pays it back
    /// through negative advancement, so the score swings by half a man
    /// between odd and even depths and the search's tree grows fivefold
    /// (docs/evaluation.md, "Why tempo is held at 4").
    pub fixed: Vec<(usize, f64)>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            model: Model::Patterns,
            epochs: 30,
            lambda: 0.5,
            learning_rate: 1.0,
            batch: 16384,
            l2: 1e-7,
            threads: 1,
            seed: 1,
            freeze_hand: false,
            freeze_patterns: false,
            fixed: Vec::new(),
        }
    }
}

/// What one epoch did (for the progress lines).
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Mean loss over the training set.
    pub train_loss: f64,
    /// Mean loss over the validation set.
    pub valid_loss: f64,
    /// Time since the training started.
    pub seconds: f64,
}

/// The result of `train`.
pub struct Fit {
    /// The weights of the epoch with the lowest validation loss.
    pub weights: VariantWeights,
    /// The fitted scale of the sigmoid, centi-men.
    pub k: f64,
    /// The starting weights' validation loss.
    pub valid_loss_before: f64,
    /// The kept epoch's validation loss.
    pub valid_loss_after: f64,
    /// 0: no epoch improved on the starting weights.
    pub best_epoch: usize,
}

#[inline(always)]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of predicting `p` for target `t`.
#[inline(always)]
fn cross_entropy(t: f64, p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The `K` for which `sigmoid(score / K)` best predicts the results
/// (golden-section search on ln K between 10 and 5000), over the samples
/// whose target is not the databases' value: those are fitted to it
/// whatever `K` is, and a position drawn from the tables has no search
/// score or game to measure `K` by.
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let loss = |ln_k: f64| {
        let k = ln_k.exp();
        samples
            .iter()
            .filter(|s| s.exact.is_none())
            .map(|s| cross_entropy(s.result as f64, sigmoid(s.score as f64 / k)))
            .sum::<f64>()
    };
    let (mut a, mut b) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loss(c), loss(d));
    while b - a > 1e-4 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// A position's features, read in floating point.
struct Inputs {
    /// White's hand features less Black's, in feature units.
    hand: [f64; TERMS],
    /// Per region: the parameter and its sign (0: the configuration is
    /// worth nothing).
    slots: [(u32, f64); REGIONS],
    /// Share of the opening weights (pieces / 32, at most 1).
    opening: f64,
    /// +1 White to move, -1 Black.
    side: f64,
    /// The king features (the `kings` model only).
    kings: Option<kings::Features>,
}

/// `None` where the evaluation is not the weights' alone (a known draw,
/// a lone piece: `eval::endgame`), which the weights cannot be fitted to.
fn inputs(pos: &Position, model: Model) -> Option<Inputs> {
    let f = hand::features(pos);
    if f.known_draw || endgame::overrides_the_weights(pos) {
        return None;
    }
    let mut x = Inputs {
        hand: [0.0; TERMS],
        slots: [(0, 0.0); REGIONS],
        opening: (f.pieces as f64 / pattern::PHASES as f64).min(1.0),
        side: match pos.side_to_move() {
            Color::White => 1.0,
            Color::Black => -1.0,
        },
        kings: (model == Model::Kings).then(|| {
            let men = [pos.men(Color::White).0, pos.men(Color::Black).0];
            kings::features(men, [pos.kings(Color::White).0, pos.kings(Color::Black).0])
        }),
    };
    for (h, d) in x.hand.iter_mut().zip(f.difference()) {
        *h = d as f64 / hand::ONE as f64;
    }
    if model != Model::Hand {
        let layout = Layout::get();
        pattern::for_each_config(
            pos.men(Color::White).0,
            pos.men(Color::Black).0,
            |region, config| {
                if let Some((p, negated)) = layout.slot(region, config).get() {
                    x.slots[region] = (p as u32, if negated { -1.0 } else { 1.0 });
                }
            },
        );
    }
    Some(x)
}

/// The weights in centi-men, as the trainer moves them.
#[derive(Clone)]
struct Params {
    hand: [f64; TERMS],
    opening: Vec<f64>,
    endgame: Vec<f64>,
    /// The king terms (`kings::KingTable`'s order), empty but in the
    /// `kings` model.
    kings: Vec<f64>,
}

const FIXED: f64 = hand::ONE as f64;

impl Params {
    fn of(w: &VariantWeights, model: Model) -> Params {
        let n = match model {
            Model::Hand => 0,
            Model::Patterns | Model::Kings => Layout::get().params(),
        };
        // A start without king weights starts them at zero, which is how
        // it scores.
        let kings = match (&w.kings, model) {
            (Some(k), Model::Kings) => k.params().map(|x| x as f64 / FIXED).collect(),
            (None, Model::Kings) => vec![0.0; kings::PARAMS],
            _ => Vec::new(),
        };
        let (opening, endgame) = match &w.patterns {
            Some(t) if model != Model::Hand => (
                t.params()
                    .opening
                    .iter()
                    .map(|&x| x as f64 / FIXED)
                    .collect(),
                t.params()
                    .endgame
                    .iter()
                    .map(|&x| x as f64 / FIXED)
                    .collect(),
            ),
            _ => (vec![0.0; n], vec![0.0; n]),
        };
        Params {
            hand: w.hand.map(|x| x as f64 / FIXED),
            opening,
            endgame,
            kings,
        }
    }

    fn weights(&self, w: &VariantWeights, model: Model) -> VariantWeights {
        let round = |x: f64| (x * FIXED).round().clamp(-32767.0, 32767.0) as i16;
        VariantWeights {
            variant: w.variant,
            hand: self.hand.map(|x| (x * FIXED).round() as i32),
            patterns: (model != Model::Hand).then(|| {
                PatternTable::new(PatternParams {
                    opening: self.opening.iter().map(|&x| round(x)).collect(),
                    endgame: self.endgame.iter().map(|&x| round(x)).collect(),
                })
            }),
            kings: (model == Model::Kings).then(|| {
                let k: Vec<i16> = self.kings.iter().map(|&x| round(x)).collect();
                let (material, squares) = k.split_at(kings::MATERIAL);
                let (opening, endgame) = squares.split_at(kings::SQUARES);
                let array =
                    |x: &[i16]| -> [i16; kings::SQUARES] { x.try_into().expect("SQUARES weights") };
                KingTable::new(material.to_vec(), array(opening), array(endgame))
            }),
            description: w.description.clone(),
        }
    }

    /// The evaluation, White's view, centi-men.
    #[inline(always)]
    fn eval_white(&self, x: &Inputs) -> f64 {
        let mut e: f64 = self.hand.iter().zip(&x.hand).map(|(w, f)| w * f).sum();
        if !self.opening.is_empty() {
            for &(p, sign) in &x.slots {
                let p = p as usize;
                e += sign * (self.opening[p] * x.opening + self.endgame[p] * (1.0 - x.opening));
            }
        }
        if let Some(k) = &x.kings {
            let (material, squares) = self.kings.split_at(kings::MATERIAL);
            let (opening, endgame) = squares.split_at(kings::SQUARES);
            if let Some((w, b)) = k.material {
                e += material[w] - material[b];
            }
            for (i, &n) in k.squares.iter().enumerate() {
                if n != 0 {
                    e += n as f64 * (opening[i] * x.opening + endgame[i] * (1.0 - x.opening));
                }
            }
        }
        e
    }

    /// The gradient of `eval_white` times `d`, added to `self`.
    fn add_king_gradient(&mut self, k: &kings::Features, opening: f64, d: f64) {
        if let Some((w, b)) = k.material {
            self.kings[w] += d;
            self.kings[b] -= d;
        }
        let squares = &mut self.kings[kings::MATERIAL..];
        for (i, &n) in k.squares.iter().enumerate() {
            if n != 0 {
                squares[i] += d * n as f64 * opening;
                squares[kings::SQUARES + i] += d * n as f64 * (1.0 - opening);
            }
        }
    }

    fn zero_like(&self) -> Params {
        Params {
            hand: [0.0; TERMS],
            opening: vec![0.0; self.opening.len()],
            endgame: vec![0.0; self.endgame.len()],
            kings: vec![0.0; self.kings.len()],
        }
    }

    fn values(&self) -> impl Iterator<Item = &f64> {
        self.hand
            .iter()
            .chain(&self.opening)
            .chain(&self.endgame)
            .chain(&self.kings)
    }

    fn values_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.hand
            .iter_mut()
            .chain(self.opening.iter_mut())
            .chain(self.endgame.iter_mut())
            .chain(self.kings.iter_mut())
    }

    fn add(&mut self, other: &Params) {
        for (a, b) in self.values_mut().zip(other.values()) {
            *a += b;
        }
    }
}

/// The loss: what the model is fitted to.
pub struct Objective {
    /// The sigmoid's scale, centi-men.
    pub k: f64,
    /// Weight of the game result in the blended target.
    pub lambda: f64,
    /// The weights fitted.
    pub model: Model,
}

impl Objective {
    /// What the model should predict for `s`: the databases' exact value
    /// where there is one, else the blend of result and search score.
    pub fn target(&self, s: &Sample) -> f64 {
        match s.exact {
            Some(exact) => exact as f64,
            None => {
                self.lambda * s.result as f64
                    + (1.0 - self.lambda) * sigmoid(s.score as f64 / self.k)
            }
        }
    }

    /// The summed loss over `samples`, adding its gradient to `grad` if given.
    fn run(&self, params: &Params, samples: &[Sample], mut grad: Option<&mut Params>) -> f64 {
        let mut total = 0.0;
        for s in samples {
            let Some(x) = inputs(&s.position, self.model) else {
                continue;
            };
            let e = x.side * params.eval_white(&x);
            let p = sigmoid(e / self.k);
            let t = self.target(s);
            total += cross_entropy(t, p);
            if let Some(g) = grad.as_deref_mut() {
                let d = x.side * (p - t) / self.k;
                for (gi, xi) in g.hand.iter_mut().zip(&x.hand) {
                    *gi += d * xi;
                }
                if !g.opening.is_empty() {
                    for &(p, sign) in &x.slots {
                        let p = p as usize;
                        g.opening[p] += d * sign * x.opening;
                        g.endgame[p] += d * sign * (1.0 - x.opening);
                    }
                }
                if let Some(k) = &x.kings {
                    g.add_king_gradient(k, x.opening, d);
                }
            }
        }
        total
    }

    /// The mean loss over `samples`, on `threads` threads.
    fn mean_loss(&self, params: &Params, samples: &[Sample], threads: usize) -> f64 {
        let chunk = samples.len().div_ceil(threads.max(1)).max(1);
        let total: f64 = std::thread::scope(|s| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| s.spawn(move || self.run(params, part, None)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("loss thread panicked"))
                .sum()
        });
        total / samples.len().max(1) as f64
    }
}

struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;

    fn step(&mut self, params: &mut Params, grad: &Params, lr: f64) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        let grads = grad.values();
        let ms = self.m.values_mut();
        let vs = self.v.values_mut();
        for (((w, g), m), v) in params.values_mut().zip(grads).zip(ms).zip(vs) {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-9);
        }
    }
}

/// Fits `start`'s weights (as `settings.model`) to `train`, keeping the
/// epoch with the lowest loss on `valid`. `report` hears of every epoch.
pub fn train(
    train: &[Sample],
    valid: &[Sample],
    start: &VariantWeights,
    settings: &Settings,
    report: &mut dyn FnMut(&EpochReport),
) -> Fit {
    let objective = Objective {
        k: fit_scale(train),
        lambda: settings.lambda,
        model: settings.model,
    };
    let threads = settings.threads.max(1);
    let mut params = Params::of(start, settings.model);
    for &(term, cm) in &settings.fixed {
        params.hand[term] = cm;
    }
    let valid_loss_before = objective.mean_loss(&params, valid, threads);
    let mut best = (valid_loss_before, 0, params.clone());
    let mut adam = Adam {
        m: params.zero_like(),
        v: params.zero_like(),
        t: 0,
    };
    let mut rng = Rng::new(settings.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut batch = Vec::with_capacity(settings.batch);
    // One gradient per thread, summed into the first.
    let mut grads: Vec<Params> = (0..threads).map(|_| params.zero_like()).collect();
    for epoch in 1..=settings.epochs {
        let started = Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let progress = (epoch - 1) as f64 / settings.epochs.max(1) as f64;
        let lr = settings.learning_rate * (1.0 - 0.9 * progress);
        let mut train_loss = 0.0;
        for indices in order.chunks(settings.batch.max(1)) {
            batch.clear();
            batch.extend(indices.iter().map(|&i| train[i]));
            let chunk = batch.len().div_ceil(threads);
            let loss: f64 = std::thread::scope(|s| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(part, g)| {
                        let (objective, params) = (&objective, &params);
                        s.spawn(move || {
                            g.values_mut().for_each(|x| *x = 0.0);
                            objective.run(params, part, Some(g))
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("gradient thread panicked"))
                    .sum()
            });
            let parts = batch.len().div_ceil(chunk);
            let (grad, others) = grads.split_first_mut().expect("one thread at least");
            for g in &others[..parts - 1] {
                grad.add(g);
            }
            train_loss += loss;
            let n = batch.len() as f64;
            for g in grad.values_mut() {
                *g /= n;
            }
            for (g, w) in grad.opening.iter_mut().zip(&params.opening) {
                *g += settings.l2 * w;
            }
            for (g, w) in grad.endgame.iter_mut().zip(&params.endgame) {
                *g += settings.l2 * w;
            }
            for (g, w) in grad.kings.iter_mut().zip(&params.kings) {
                *g += settings.l2 * w;
            }
            if settings.freeze_hand {
                grad.hand = [0.0; TERMS];
            }
            if settings.freeze_patterns {
                grad.opening.iter_mut().for_each(|g| *g = 0.0);
                grad.endgame.iter_mut().for_each(|g| *g = 0.0);
            }
            // A zero gradient from the first step keeps Adam's moments at
            // zero, so a fixed term does not move at all.
            for &(term, _) in &settings.fixed {
                grad.hand[term] = 0.0;
            }
            adam.step(&mut params, grad, lr);
        }
        let valid_loss = objective.mean_loss(&params, valid, threads);
        report(&EpochReport {
            epoch,
            train_loss: train_loss / train.len().max(1) as f64,
            valid_loss,
            seconds: started.elapsed().as_secs_f64(),
        });
        if valid_loss < best.0 {
            best = (valid_loss, epoch, params.clone());
        }
    }
    let (valid_loss_after, best_epoch, params) = best;
    let weights = params.weights(start, settings.model);
    // The kept weights, rounded to the evaluation's fixed point, are what
    // the validation loss is reported for.
    let rounded = Params::of(&weights, settings.model);
    let valid_loss_after = if best_epoch == 0 {
        valid_loss_after
    } else {
        objective.mean_loss(&rounded, valid, threads)
    };
    Fit {
        weights,
        k: objective.k,
        valid_loss_before,
        valid_loss_after,
        best_epoch,
    }
}
