//! The fast reader against serde-saphyr, in debug builds: both deserialize the text into the
//! target type through [`Logged`], which notes every value the type's visitors are handed (a
//! string, an integer, a boolean, a null, the start and end of each sequence and mapping, each
//! enum variant's form); the two lists must be equal, and serde-saphyr must accept the text.
//! Equal lists give equal values whatever the type, and a difference shows where the readers
//! disagree (a field given the text `"123"` by one and the number 123 by the other, say),
//! without asking the type to be `Serialize` or `PartialEq`.

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, Visitor};
use std::cell::RefCell;
use std::fmt;

/// One thing a visitor was handed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Ev {
    Bool(bool),
    Int(i128),
    UInt(u128),
    Float(u64),
    Char(char),
    Str(String),
    Bytes(Vec<u8>),
    None,
    Some,
    Unit,
    Newtype,
    Seq,
    SeqEnd,
    Map,
    Key,
    Value,
    MapEnd,
    Enum,
    UnitVariant,
    NewtypeVariant,
    TupleVariant,
    StructVariant,
    /// A value the type skipped (an unknown field where those are allowed): its content is
    /// not compared.
    Ignored,
}

type Log = RefCell<Vec<Ev>>;

/// [`super::from_str`] in debug builds: the fast reader's value, after serde-saphyr was seen
/// to give the type the same; panics when it does not.
pub(super) fn from_str_checked<T: DeserializeOwned>(text: &str) -> Option<T> {
    let (ours, log) = read_logged::<T>(text)?;
    let theirs = Log::default();
    let parsed =
        serde_saphyr::with_deserializer_from_str_with_options(text, crate::yaml::options(), |de| {
            T::deserialize(Logged { de, log: &theirs })
        });
    if let Err(e) = parsed {
        panic!("pbem's YAML reader accepted a text serde-saphyr refuses ({e}):\n{text}");
    }
    let theirs = theirs.into_inner();
    if log != theirs {
        let at = log.iter().zip(&theirs).position(|(a, b)| a != b);
        panic!(
            "pbem's YAML reader differs from serde-saphyr (first difference at event {at:?})\n\
             --- text:\n{text}--- pbem:\n{log:?}\n--- serde-saphyr:\n{theirs:?}"
        );
    }
    Some(ours)
}

/// The fast reader's value and what it handed the type, or `None` where it gives up.
pub(super) fn read_logged<T: DeserializeOwned>(text: &str) -> Option<(T, Vec<Ev>)> {
    let node = super::parse(text).ok()?;
    let log = Log::default();
    let value = T::deserialize(Logged {
        de: super::NodeDe(node),
        log: &log,
    })
    .ok()?;
    Some((value, log.into_inner()))
}

/// What serde-saphyr hands `T` for `text`, or its error message.
#[cfg(test)]
pub(super) fn saphyr_logged<T: DeserializeOwned>(text: &str) -> Result<Vec<Ev>, String> {
    let log = Log::default();
    serde_saphyr::with_deserializer_from_str_with_options(text, crate::yaml::options(), |de| {
        T::deserialize(Logged { de, log: &log })
    })
    .map_err(|e| e.to_string())?;
    Ok(log.into_inner())
}

/// A deserializer that forwards to `de` and notes what the visitors are handed.
struct Logged<'l, D> {
    de: D,
    log: &'l Log,
}

struct Vis<'l, V> {
    v: V,
    log: &'l Log,
}

fn note(log: &Log, ev: Ev) {
    log.borrow_mut().push(ev);
}

macro_rules! forward {
    ($($m:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $m<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.de.$m($($arg,)* Vis { v: visitor, log: self.log })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Logged<'_, D> {
    type Error = D::Error;

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        note(self.log, Ev::Ignored);
        self.de.deserialize_ignored_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

macro_rules! visit {
    ($($m:ident($ty:ty) => $ev:expr;)*) => {$(
        fn $m<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            #[allow(clippy::redundant_closure_call)]
            note(self.log, ($ev)(&v));
            self.v.$m(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Vis<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.v.expecting(f)
    }

    visit! {
        visit_bool(bool) => |v: &bool| Ev::Bool(*v);
        visit_i8(i8) => |v: &i8| Ev::Int(i128::from(*v));
        visit_i16(i16) => |v: &i16| Ev::Int(i128::from(*v));
        visit_i32(i32) => |v: &i32| Ev::Int(i128::from(*v));
        visit_i64(i64) => |v: &i64| Ev::Int(i128::from(*v));
        visit_i128(i128) => |v: &i128| Ev::Int(*v);
        visit_u8(u8) => |v: &u8| Ev::UInt(u128::from(*v));
        visit_u16(u16) => |v: &u16| Ev::UInt(u128::from(*v));
        visit_u32(u32) => |v: &u32| Ev::UInt(u128::from(*v));
        visit_u64(u64) => |v: &u64| Ev::UInt(u128::from(*v));
        visit_u128(u128) => |v: &u128| Ev::UInt(*v);
        visit_f32(f32) => |v: &f32| Ev::Float(f64::from(*v).to_bits());
        visit_f64(f64) => |v: &f64| Ev::Float(v.to_bits());
        visit_char(char) => |v: &char| Ev::Char(*v);
        visit_str(&str) => |v: &&str| Ev::Str((*v).to_string());
        visit_borrowed_str(&'de str) => |v: &&str| Ev::Str((*v).to_string());
        visit_string(String) => |v: &String| Ev::Str(v.clone());
        visit_bytes(&[u8]) => |v: &&[u8]| Ev::Bytes(v.to_vec());
        visit_borrowed_bytes(&'de [u8]) => |v: &&[u8]| Ev::Bytes(v.to_vec());
        visit_byte_buf(Vec<u8>) => |v: &Vec<u8>| Ev::Bytes(v.clone());
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        note(self.log, Ev::None);
        self.v.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        note(self.log, Ev::Unit);
        self.v.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        note(self.log, Ev::Some);
        self.v.visit_some(Logged {
            de: d,
            log: self.log,
        })
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        note(self.log, Ev::Newtype);
        self.v.visit_newtype_struct(Logged {
            de: d,
            log: self.log,
        })
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        note(self.log, Ev::Seq);
        self.v.visit_seq(Seq { a, log: self.log })
    }

    fn visit_map<A: de::MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        note(self.log, Ev::Map);
        self.v.visit_map(Map { a, log: self.log })
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        note(self.log, Ev::Enum);
        self.v.visit_enum(Enum { a, log: self.log })
    }
}

struct Seed<'l, S> {
    s: S,
    log: &'l Log,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.s.deserialize(Logged { de, log: self.log })
    }
}

struct Seq<'l, A> {
    a: A,
    log: &'l Log,
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Seq<'_, A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let r = self.a.next_element_seed(Seed {
            s: seed,
            log: self.log,
        })?;
        if r.is_none() {
            note(self.log, Ev::SeqEnd);
        }
        Ok(r)
    }
}

struct Map<'l, A> {
    a: A,
    log: &'l Log,
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Map<'_, A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        note(self.log, Ev::Key);
        let r = self.a.next_key_seed(Seed {
            s: seed,
            log: self.log,
        })?;
        if r.is_none() {
            note(self.log, Ev::MapEnd);
        }
        Ok(r)
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        note(self.log, Ev::Value);
        self.a.next_value_seed(Seed {
            s: seed,
            log: self.log,
        })
    }
}

struct Enum<'l, A> {
    a: A,
    log: &'l Log,
}

impl<'l, 'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Enum<'l, A> {
    type Error = A::Error;
    type Variant = Variant<'l, A::Variant>;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let (v, a) = self.a.variant_seed(Seed {
            s: seed,
            log: self.log,
        })?;
        Ok((v, Variant { a, log: self.log }))
    }
}

struct Variant<'l, A> {
    a: A,
    log: &'l Log,
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Variant<'_, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        note(self.log, Ev::UnitVariant);
        self.a.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        note(self.log, Ev::NewtypeVariant);
        self.a.newtype_variant_seed(Seed {
            s: seed,
            log: self.log,
        })
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        note(self.log, Ev::TupleVariant);
        self.a.tuple_variant(
            len,
            Vis {
                v: visitor,
                log: self.log,
            },
        )
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        note(self.log, Ev::StructVariant);
        self.a.struct_variant(
            fields,
            Vis {
                v: visitor,
                log: self.log,
            },
        )
    }
}
