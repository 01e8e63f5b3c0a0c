//! The learned weights: 16-bit integers, a table a stage, and their checksummed file.
//!
//! The file, little-endian: the magic `GSWEIGHT`, a format version (u32, 1), the feature set's
//! name (u32 length, UTF-8 bytes), the stages and the weights a stage (u32 each), the scale
//! (u32: units of the game's value a weight's 1 is worth the inverse of), the seed the weights
//! were learned from (u64), the weights (i16 each, stage by stage), and a CRC-32 of everything
//! before it.

use crate::error::Error;
use crate::game::{Player, Score};

use super::Features;

const MAGIC: &[u8; 8] = b"GSWEIGHT";
const VERSION: u32 = 1;
/// The finest scale a file takes: a weight's unit is 1/256 of the game's value unit.
const MAX_SCALE: u32 = 256;

/// A learned evaluation's weights: `stages × per_stage` 16-bit weights, each worth `1/scale` of
/// the game's value unit.
///
/// ```
/// use gamesearch::learn::Weights;
/// let w = Weights::from_f32("my-game-1", 2, 3, &[0.5, -1.0, 2.0, 0.0, 0.25, 8.0], 42);
/// let bytes = w.to_bytes();
/// assert_eq!(Weights::from_bytes(&bytes, "my-game-1", "w.bin").unwrap(), w);
/// // Another game's file, a truncated file and a damaged one are each refused with one line.
/// let e = Weights::from_bytes(&bytes, "other-1", "w.bin").unwrap_err();
/// assert!(e.to_string().contains("learned for `my-game-1`, not `other-1`"), "{e}");
/// assert!(Weights::from_bytes(&bytes[..bytes.len() - 3], "my-game-1", "w.bin").is_err());
/// let mut damaged = bytes.clone();
/// damaged[40] ^= 1;
/// assert!(Weights::from_bytes(&damaged, "my-game-1", "w.bin").unwrap_err().to_string().contains("checksum"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    feature_set: String,
    stages: usize,
    per_stage: usize,
    scale: u32,
    seed: u64,
    values: Vec<i16>,
}

impl Weights {
    /// All zero weights for `game`'s features, at the finest scale.
    pub fn zero<G: Features>(game: &G) -> Weights {
        let (stages, per_stage) = (game.stages().max(1), game.weights_per_stage());
        Weights {
            feature_set: game.feature_set(),
            stages,
            per_stage,
            scale: MAX_SCALE,
            seed: 0,
            values: vec![0; stages * per_stage],
        }
    }

    /// Weights rounded from floats (`values.len()` is `stages × per_stage`), at the finest
    /// scale (a power of two up to 256) at which the largest still fits in 16 bits.
    pub fn from_f32(
        feature_set: &str,
        stages: usize,
        per_stage: usize,
        values: &[f32],
        seed: u64,
    ) -> Weights {
        assert_eq!(values.len(), stages * per_stage, "stages × weights a stage");
        let largest = values.iter().fold(0f32, |m, v| m.max(v.abs()));
        let mut scale = MAX_SCALE;
        while scale > 1 && largest * scale as f32 > f32::from(i16::MAX) {
            scale /= 2;
        }
        let values = values
            .iter()
            .map(|v| {
                (v * scale as f32)
                    .round()
                    .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
            })
            .collect();
        Weights {
            feature_set: feature_set.to_string(),
            stages,
            per_stage,
            scale,
            seed,
            values,
        }
    }

    /// The feature set these weights were learned for.
    pub fn feature_set(&self) -> &str {
        &self.feature_set
    }

    /// Stages, and weights a stage.
    pub fn shape(&self) -> (usize, usize) {
        (self.stages, self.per_stage)
    }

    /// How many units of a weight make one unit of the game's value.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// The seed the weights were learned from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The weights of `stage`, as floats in the game's units.
    pub fn stage_f32(&self, stage: usize) -> Vec<f32> {
        let s = self.scale as f32;
        self.stage_table(stage)
            .iter()
            .map(|&w| f32::from(w) / s)
            .collect()
    }

    /// The weights of `stage` (the last stage's past it), in `1/scale` units: what a game's
    /// own fast evaluation sums without building a position.
    #[inline]
    pub fn stage_table(&self, stage: usize) -> &[i16] {
        let stage = stage.min(self.stages - 1);
        &self.values[stage * self.per_stage..(stage + 1) * self.per_stage]
    }

    /// The evaluation of `game` from the side to move's view, in `1/scale` of the game's value
    /// unit: the sum of its stage's weights at its features. Allocates nothing. The weights must
    /// have the game's shape (as [`Weights::load`] and [`Weights::check_shape`] make sure): a
    /// feature index past the stage's table panics.
    #[inline]
    pub fn value<G: Features>(&self, game: &G) -> i32 {
        let table = self.stage_table(game.stage());
        let mut sum = 0i32;
        game.features(&mut |i| sum += i32::from(table[i as usize]));
        sum
    }

    /// The evaluation of `game` from MAX's view, rounded to the game's value unit (what
    /// [`crate::Game::evaluate`] and an engine's heuristic give).
    pub fn score<G: Features>(&self, game: &G) -> Score {
        let v = self.value(game);
        let s = self.scale as i32;
        let rounded = (v + v.signum() * s / 2) / s;
        match game.to_move() {
            Player::Max => rounded,
            Player::Min => -rounded,
        }
    }

    /// The file's bytes (see the module's documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(48 + self.feature_set.len() + 2 * self.values.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.feature_set.len() as u32).to_le_bytes());
        out.extend_from_slice(self.feature_set.as_bytes());
        out.extend_from_slice(&(self.stages as u32).to_le_bytes());
        out.extend_from_slice(&(self.per_stage as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        for w in &self.values {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Weights read back from a file's bytes, checked: the magic, the version, the checksum,
    /// the length, and that they were learned for `feature_set`. `path` names the file in the
    /// error ([`Error::WeightsFile`]).
    pub fn from_bytes(bytes: &[u8], feature_set: &str, path: &str) -> Result<Weights, Error> {
        let bad = |message: String| Error::WeightsFile {
            path: path.to_string(),
            message,
        };
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a weights file (no GSWEIGHT header)".into()));
        }
        if bytes.len() < MAGIC.len() + 12 {
            return Err(bad("truncated".into()));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32().ok_or_else(|| bad("truncated".into()))?;
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}; this build reads version {VERSION}"
            )));
        }
        let name_len = r.u32().ok_or_else(|| bad("truncated".into()))? as usize;
        let name = r
            .take(name_len)
            .and_then(|b| String::from_utf8(b.to_vec()).ok())
            .ok_or_else(|| bad("truncated or damaged header".into()))?;
        let header = (|| Some((r.u32()?, r.u32()?, r.u32()?, r.u64()?)))();
        let Some((stages, per_stage, scale, seed)) = header else {
            return Err(bad("truncated".into()));
        };
        let (stages, per_stage) = (stages as usize, per_stage as usize);
        let count = stages.checked_mul(per_stage).filter(|&c| c > 0);
        let Some(count) = count.filter(|c| body.len() - r.at == 2 * c) else {
            return Err(bad(format!(
                "truncated: {} bytes of weights where {stages} stages of {per_stage} need {}",
                body.len().saturating_sub(r.at),
                2 * stages.saturating_mul(per_stage)
            )));
        };
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(bad("checksum mismatch: the file is damaged".into()));
        }
        if name != feature_set {
            return Err(bad(format!(
                "weights learned for `{name}`, not `{feature_set}`"
            )));
        }
        if scale == 0 || scale > MAX_SCALE {
            return Err(bad(format!("scale {scale} out of range")));
        }
        let values = body[r.at..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect::<Vec<_>>();
        debug_assert_eq!(values.len(), count);
        Ok(Weights {
            feature_set: name,
            stages,
            per_stage,
            scale,
            seed,
            values,
        })
    }

    /// Weights read from the file at `path` for `game` ([`Weights::from_bytes`]), checked
    /// also against the game's shape.
    pub fn load<G: Features>(path: &std::path::Path, game: &G) -> Result<Weights, Error> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| Error::WeightsFile {
            path: name.clone(),
            message: e.to_string(),
        })?;
        let w = Weights::from_bytes(&bytes, &game.feature_set(), &name)?;
        w.check_shape(game, &name)?;
        Ok(w)
    }

    /// An error unless these weights have `game`'s stages and weights a stage.
    pub fn check_shape<G: Features>(&self, game: &G, path: &str) -> Result<(), Error> {
        let want = (game.stages().max(1), game.weights_per_stage());
        if self.shape() != want {
            return Err(Error::WeightsFile {
                path: path.to_string(),
                message: format!(
                    "{} stages of {} weights, where `{}` has {} of {}",
                    self.stages, self.per_stage, self.feature_set, want.0, want.1
                ),
            });
        }
        Ok(())
    }

    /// Writes the file at `path`.
    pub fn save(&self, path: &std::path::Path) -> Result<(), Error> {
        std::fs::write(path, self.to_bytes()).map_err(|e| Error::WeightsFile {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }
}

/// Little-endian reads from a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len())?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Some(out)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
    }
}
