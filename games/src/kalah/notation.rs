//! Kalah's text form: `M,N` for the start of Kalah(M, N), or `S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N`;
//! either followed by `:standard` for the standard capture rule (`:empty-capture`, the default,
//! may be written too).

use std::fmt;
use std::str::FromStr;

use gamesearch::error::Error;

use super::{Kalah, Rule, MAX_PITS, MAX_SEEDS};

impl fmt::Display for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |s: &[u8]| s.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let (s, n) = self.stores();
        write!(
            f,
            "{}/{}/{s},{n}/{}",
            list(self.south()),
            list(self.north()),
            if self.south_to_move { 'S' } else { 'N' }
        )?;
        match self.rule {
            Rule::EmptyCapture => Ok(()),
            Rule::Standard => write!(f, ":{}", self.rule.name()),
        }
    }
}

impl fmt::Debug for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kalah({self})")
    }
}

impl FromStr for Kalah {
    type Err = Error;
    /// Reads `M,N` (the start of Kalah(M, N)) or the full text form, each with an optional
    /// `:standard` (or `:empty-capture`) for the capture rule.
    ///
    /// ```
    /// use gamesearch_games::{Kalah, Rule};
    /// let p: Kalah = "0,0,1/2,0,0/5,4/N".parse().unwrap();
    /// assert_eq!(p.pits(), 3);
    /// assert_eq!("6,4".parse::<Kalah>().unwrap(), Kalah::new(6, 4).unwrap());
    /// assert_eq!("6,4:standard".parse::<Kalah>().unwrap().rule(), Rule::Standard);
    /// assert!("1,2/3/0,0/S".parse::<Kalah>().is_err());
    /// assert!("6,4:oware".parse::<Kalah>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Kalah, Error> {
        let (s, rule) = match text.trim().rsplit_once(':') {
            None => (text, Rule::EmptyCapture),
            Some((body, name)) => (body, name.parse()?),
        };
        Ok(read_position(s)?.with_rule(rule))
    }
}

impl FromStr for Rule {
    type Err = Error;
    /// `standard` or `empty-capture`.
    fn from_str(name: &str) -> Result<Rule, Error> {
        [Rule::EmptyCapture, Rule::Standard]
            .into_iter()
            .find(|r| r.name() == name.trim())
            .ok_or_else(|| {
                Error::BadParameter(format!(
                    "Kalah: `{name}` is no capture rule; expected `standard` or `empty-capture`"
                ))
            })
    }
}

/// The position part of the text form, under the default rule.
fn read_position(s: &str) -> Result<Kalah, Error> {
    let bad = |m: String| Error::BadParameter(format!("Kalah position `{s}`: {m}"));
    let nums = |part: &str| -> Result<Vec<u32>, Error> {
        part.split(',')
            .map(|x| {
                x.trim()
                    .parse::<u32>()
                    .map_err(|_| bad(format!("`{x}` is not a seed count")))
            })
            .collect()
    };
    let parts: Vec<&str> = s.trim().split('/').collect();
    if parts.len() == 1 {
        let v = nums(parts[0])?;
        if v.len() != 2 {
            return Err(bad(
                "expected M,N or S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N".into()
            ));
        }
        return Kalah::new(v[0] as usize, v[1]);
    }
    if parts.len() != 4 {
        return Err(bad("expected 4 parts separated by `/`".into()));
    }
    let (south, north, stores) = (nums(parts[0])?, nums(parts[1])?, nums(parts[2])?);
    let m = south.len();
    if north.len() != m {
        return Err(bad(format!(
            "South has {m} pits but North has {}",
            north.len()
        )));
    }
    if !(1..=MAX_PITS).contains(&m) {
        return Err(bad(format!("1 to {MAX_PITS} pits a side")));
    }
    if stores.len() != 2 {
        return Err(bad("two stores expected, `S,N`".into()));
    }
    let total: u32 = south.iter().chain(&north).chain(&stores).sum();
    if total > MAX_SEEDS {
        return Err(bad(format!("{total} seeds; at most {MAX_SEEDS}")));
    }
    let south_to_move = match parts[3].trim() {
        "S" | "s" => true,
        "N" | "n" => false,
        other => return Err(bad(format!("`{other}`: the side to move is S or N"))),
    };
    let mut holes = [0u8; 2 * MAX_PITS + 2];
    for i in 0..m {
        holes[i] = south[i] as u8;
        holes[m + 1 + i] = north[i] as u8;
    }
    holes[m] = stores[0] as u8;
    holes[2 * m + 1] = stores[1] as u8;
    let p = Kalah {
        holes,
        m: m as u8,
        south_to_move,
        rule: Rule::EmptyCapture,
    };
    if p.is_over() && (p.south().iter().any(|&x| x > 0) || p.north().iter().any(|&x| x > 0)) {
        return Err(bad(
            "one side is empty but the other still has seeds (they belong in the store)".into(),
        ));
    }
    Ok(p)
}
