#!/usr/bin/env python3
"""Independent auditor of pbem-dice-v1 (docs/dice.md), in pure Python 3 standard library.

It shares no code with pbem: SHA-256 comes from hashlib, ChaCha20 is written out below from
RFC 8439 section 2.3, and the journal files are read with a small YAML reader that accepts only
the block-style subset pbem writes (it stops with an error on anything else rather than guess).

    python3 tools/dice_audit.py GAME_DIR [--json] [--game-key HEX]
        Public audit of a game directory: reads game.yaml (game id, seat order) and every
        journal/NNNNNN.yaml (any other file in journal/, such as a record after a gap, is a
        finding; a .tmp* leftover of an interrupted write is passed over); checks the hash chain, every host reveal against the commitment
        published one record earlier, every step seed, every public die and every sealed draw
        a later step revealed with its key (journal/5: the values the key gives). Once the game is
        concluded (its last record reveals the master seed and game key, `pbem conclude`), it
        also checks that the master seed derives every host reveal, the game-key commitment, and
        every sealed transcript (archive/sealed/NNNNNN.yaml, or host/sealed/ for a host): its
        sealed commitment and its draws; that each revealed key is the game key's for its step
        and label, and its draw the one that step made; and every order used (archive/orders/): its SHA-256 is
        the order hash of the journal, and its secret entropy gives the record's dice_entropy
        (journal/2, docs/dice.md "Order commitments"). --game-key HEX does the sealed checks
        before that.
        --json prints the recomputed seeds and dice and the findings as one JSON object.
        Exit status: 0 all checks pass, 1 a check failed, 2 the input could not be read.

    python3 tools/dice_audit.py --self-test
        Checks the ChaCha20 block function against RFC 8439 (section 2.3.2 and appendix A.1)
        and every derivation against the test vectors published in docs/dice.md.

    python3 tools/dice_audit.py --vectors
        Prints the docs/dice.md test vectors as computed by this script, as JSON.
"""

import hashlib
import json
import os
import re
import struct
import sys

DICE_ALGORITHM = "pbem-dice-v1"
JOURNAL_V1, JOURNAL_V2, JOURNAL_V3 = "journal/1", "journal/2", "journal/3"
JOURNAL_V4 = "journal/4"
JOURNAL_V5 = "journal/5"
# journal/3 only adds the rules versions (genesis.rules, step.rules, an `upgrade` host
# operation): the dice and the order entries are as in journal/2. journal/4 only adds `bot:`
# (a seat played by the host's bot, its orders an entry like any other). journal/5 adds
# `step.reveals`: sealed draws of earlier steps published with their stream keys.
EMBEDDED_BEGIN = "-----BEGIN SSH SIGNATURE-----"

# --------------------------------------------------------------------------------------------
# ChaCha20, RFC 8439 section 2.3


def _rotl(v, c):
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))


def _quarter_round(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & 0xFFFFFFFF
    x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & 0xFFFFFFFF
    x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & 0xFFFFFFFF
    x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & 0xFFFFFFFF
    x[b] = _rotl(x[b] ^ x[c], 7)


def chacha20_block(key, counter, nonce):
    """The 64-byte ChaCha20 block for a 32-byte key, a 32-bit counter and a 12-byte nonce."""
    assert len(key) == 32 and len(nonce) == 12 and 0 <= counter < 2**32
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key)) + [counter] + list(struct.unpack("<3I", nonce))
    x = list(state)
    for _ in range(10):
        _quarter_round(x, 0, 4, 8, 12)
        _quarter_round(x, 1, 5, 9, 13)
        _quarter_round(x, 2, 6, 10, 14)
        _quarter_round(x, 3, 7, 11, 15)
        _quarter_round(x, 0, 5, 10, 15)
        _quarter_round(x, 1, 6, 11, 12)
        _quarter_round(x, 2, 7, 8, 13)
        _quarter_round(x, 3, 4, 9, 14)
    return struct.pack("<16I", *[(x[i] + state[i]) & 0xFFFFFFFF for i in range(16)])


# --------------------------------------------------------------------------------------------
# pbem-dice-v1


def transcript(domain, *parts):
    """SHA-256 of the domain tag and each part, every one prefixed by its u32 big-endian length."""
    h = hashlib.sha256()
    for p in (domain.encode(),) + parts:
        h.update(struct.pack(">I", len(p)) + p)
    return h.digest()


def u64(v):
    return struct.pack(">Q", v)


def commitment(secret):
    return transcript("pbem-commit-v1", secret)


def host_seed(master, step):
    return transcript("pbem-host-seed-v1", master, u64(step))


def dice_entropy(entropy):
    """The public part of an order's secret entropy (journal/2)."""
    return transcript("pbem-order-entropy-v1", entropy)


def step_seed(game, step, host_reveal, seats):
    """seats: [(side, entropy bytes or None)] in seat order; None (no order) is an empty part."""
    parts = [game.encode(), u64(step), host_reveal]
    for side, entropy in seats:
        parts += [side.encode(), entropy if entropy is not None else b""]
    return transcript("pbem-step-seed-v1", *parts)


def public_stream_key(seed, label):
    return transcript("pbem-dice-v1/public", seed, label.encode())


def sealed_stream_key(game_key, seed, label):
    return transcript("pbem-dice-v1/sealed", game_key, seed, label.encode())


def sealed_key_commit(label, key):
    return transcript("pbem-sealed-key-commit-v1", label.encode(), key)


def sealed_commit(game_key, step, sealed_yaml_bytes):
    return transcript("pbem-sealed-v1", game_key, u64(step), sealed_yaml_bytes)


class Stream:
    """The keystream of ChaCha20(key, nonce 0, counter 0, 1, ...) as little-endian u32 words."""

    def __init__(self, key):
        self.key = key
        self.counter = 0
        self.buffer = []
        self.words = []

    def word(self):
        if not self.buffer:
            block = chacha20_block(self.key, self.counter, bytes(12))
            self.buffer = list(struct.unpack("<16I", block))
            self.counter += 1
        w = self.buffer.pop(0)
        self.words.append(w)
        return w

    def below(self, n):
        """Uniform in 0..n: reject words at or above the largest multiple of n below 2^32."""
        if not 1 <= n < 2**32:
            raise ValueError(f"below({n}): n must be in 1..2^32-1")
        zone = 2**32 - (2**32 % n)
        while True:
            w = self.word()
            if w < zone:
                return w % n

    def dice(self, count, faces):
        return [self.below(faces) + 1 for _ in range(count)]


def public_roll(seed, label, count, faces):
    return Stream(public_stream_key(seed, label)).dice(count, faces)


def sealed_draws(game_key, seed, label, ranges):
    s = Stream(sealed_stream_key(game_key, seed, label))
    return [s.below(n) for n in ranges]


def sealed_shuffle(game_key, seed, label, items):
    """Fisher-Yates from the top: for i = len-1 down to 1, swap i with j = below(i+1)."""
    items = list(items)
    s = Stream(sealed_stream_key(game_key, seed, label))
    for i in range(len(items) - 1, 0, -1):
        j = s.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


# --------------------------------------------------------------------------------------------
# A YAML reader for the block-style subset that pbem writes


class YamlError(Exception):
    pass


_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
            "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
            "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


class _Reader:
    def __init__(self, text, name):
        self.name = name
        self.lines = []  # (indent, content, line number)
        self.raw = text.split("\n")
        if self.raw[-1] == "":
            self.raw.pop()  # the newline that ends the last line
        for no, line in enumerate(self.raw, 1):
            stripped = line.lstrip(" ")
            if "\t" in line[: len(line) - len(stripped)]:
                self.fail(no, "tab in indentation")
            if stripped in ("", "---", "...") or stripped.startswith("#"):
                continue
            self.lines.append([len(line) - len(stripped), stripped.rstrip(), no])
        self.pos = 0

    def fail(self, no, msg):
        raise YamlError(f"{self.name}:{no}: {msg} (this reader accepts only the YAML pbem writes)")

    def peek(self):
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def document(self):
        if not self.lines:
            return None
        value = self.node(self.lines[0][0])
        if self.peek():
            self.fail(self.peek()[2], "unexpected content")
        return value

    def node(self, indent, parent=None):
        """The node whose first line is at column `indent`; `parent` is the indentation its
        block scalar lines must exceed (the column of the enclosing sequence, if any)."""
        ind, content, no = self.peek()
        if ind != indent:
            self.fail(no, f"expected indentation {indent}, found {ind}")
        if content == "-" or content.startswith("- "):
            return self.sequence(indent)
        if self.split_key(content, no) is not None:
            return self.mapping(indent)
        self.pos += 1
        return self.scalar(content, no, indent if parent is None else parent)

    def sequence(self, indent):
        out = []
        while self.peek() and self.peek()[0] == indent and (
            self.peek()[1] == "-" or self.peek()[1].startswith("- ")
        ):
            line = self.peek()
            rest = line[1][1:]
            if rest.strip() == "":
                self.pos += 1
                nxt = self.peek()
                out.append(self.node(nxt[0]) if nxt and nxt[0] > indent else None)
            else:
                # The item's content starts a node at its own column: rewrite the line in place.
                shift = 1 + len(rest) - len(rest.lstrip(" "))
                line[0], line[1] = indent + shift, rest.lstrip(" ")
                out.append(self.node(indent + shift, indent))
        return out

    def mapping(self, indent):
        out = {}
        while self.peek() and self.peek()[0] == indent:
            _, content, no = self.peek()
            kv = self.split_key(content, no)
            if kv is None:
                self.fail(no, "expected `key: value`")
            key, rest = kv
            if key in out:
                self.fail(no, f"duplicate key {key!r}")
            self.pos += 1
            if rest == "":
                nxt = self.peek()
                is_item = nxt and (nxt[1] == "-" or nxt[1].startswith("- "))
                if nxt and (nxt[0] > indent or (nxt[0] == indent and is_item)):
                    out[key] = self.node(nxt[0])
                else:
                    out[key] = None
            else:
                out[key] = self.scalar(rest, no, indent)
        if self.peek() and self.peek()[0] > indent:
            self.fail(self.peek()[2], "unexpected indentation")
        return out

    def split_key(self, content, no):
        """(key, rest) when the line is `key: rest` or `key:`, else None."""
        if content[0] in "\"'":
            key, end = self.quoted(content, 0, no)
            rest = content[end:]
            if rest == ":" or rest.startswith(": "):
                return key, rest[1:].strip()
            return None
        if content[0] in "[{&*!|>%@`?":
            return None
        m = re.match(r"^([^#]*?):(?: +|$)(.*)$", content)
        if not m:
            return None
        return m.group(1), m.group(2)

    def quoted(self, s, start, no):
        """A quoted scalar starting at s[start]; returns (value, index after the closing quote)."""
        q, i, out = s[start], start + 1, []
        while i < len(s):
            c = s[i]
            if q == "'" and c == "'":
                if s[i + 1 : i + 2] == "'":
                    out.append("'")
                    i += 2
                    continue
                return "".join(out), i + 1
            if q == '"' and c == '"':
                return "".join(out), i + 1
            if q == '"' and c == "\\":
                e = s[i + 1 : i + 2]
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                    i += 2
                elif e in _HEX_ESCAPES:
                    digits = s[i + 2 : i + 2 + _HEX_ESCAPES[e]]
                    if len(digits) != _HEX_ESCAPES[e] or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                        self.fail(no, "bad escape")
                    out.append(chr(int(digits, 16)))
                    i += 2 + len(digits)
                else:
                    self.fail(no, f"unknown escape \\{e}")
                continue
            out.append(c)
            i += 1
        self.fail(no, "quoted scalar continues on the next line")

    def scalar(self, text, no, indent):
        if text[0] in "\"'":
            value, end = self.quoted(text, 0, no)
            tail = text[end:].strip()
            if tail and not tail.startswith("#"):
                self.fail(no, "text after a quoted scalar")
            return value
        if text[0] in "|>":
            return self.block_scalar(text, no, indent)
        if text[0] == "[" or text[0] == "{":
            return self.flow(text, no)
        if text[0] in "&*!%@`":
            self.fail(no, f"unsupported YAML feature {text[0]!r}")
        text = re.sub(r" +#.*$", "", text)
        nxt = self.peek()
        if nxt and nxt[0] > indent:
            self.fail(nxt[2], "plain scalar continues on the next line")
        return text

    def flow(self, text, no):
        text = re.sub(r" +#.*$", "", text)
        if text in ("[]", "{}"):
            return [] if text == "[]" else {}
        m = re.fullmatch(r"\[([^\[\]{}\"',]*(?:,[^\[\]{}\"',]*)*)\]", text)
        if not m:
            self.fail(no, "flow collection")
        return [x.strip() for x in m.group(1).split(",")]

    def block_scalar(self, header, no, indent):
        """A literal (|) or folded (>) scalar whose lines are indented deeper than `indent`."""
        m = re.fullmatch(r"([|>])(?:([1-9])([-+]?)|([-+]?)([1-9]?))(?: +#.*)?", header)
        if not m:
            self.fail(no, f"block scalar header {header!r}")
        style, chomp = m.group(1), m.group(3) or m.group(4)
        digit = m.group(2) or m.group(5)
        # Read the raw text (blank and '#' lines are content here), then resynchronise.
        i, rows = no, []  # self.raw[no] is the line after the header
        while i < len(self.raw) and (self.raw[i].strip() == "" or _indent(self.raw[i]) > indent):
            rows.append(self.raw[i])
            i += 1
        while self.pos < len(self.lines) and self.lines[self.pos][2] <= i:
            self.pos += 1
        filled = [r for r in rows if r.strip()]
        width = indent + int(digit) if digit else (_indent(filled[0]) if filled else 0)
        if any(_indent(r) < width for r in filled):
            self.fail(no, "block scalar line indented less than its first line")
        rows = [r[width:] for r in rows]
        last = max((k for k, r in enumerate(rows) if r.strip()), default=-1)
        body, trail = rows[: last + 1], len(rows) - last - 1
        if style == "|":
            text = "\n".join(body)
        else:
            text, prev, empties = "", None, 0
            for r in body:
                if r == "":
                    empties += 1
                    continue
                if prev is None:
                    text = "\n" * empties + r
                elif prev[0] not in " \t" and r[0] not in " \t":
                    text += (" " if empties == 0 else "\n" * empties) + r
                else:
                    text += "\n" * (empties + 1) + r
                prev, empties = r, 0
        if last < 0:
            return "\n" * len(rows) if chomp == "+" else ""
        if chomp == "-":
            return text
        return text + "\n" + ("\n" * trail if chomp == "+" else "")


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def read_yaml(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise YamlError(f"{path}: not UTF-8 ({e})")
    return _Reader(text.replace("\r\n", "\n"), path).document(), raw


# --------------------------------------------------------------------------------------------
# The audit


def _hex32(value, where):
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise YamlError(f"{where}: expected 64 lowercase hexadecimal digits, got {value!r}")
    return bytes.fromhex(value)


def _int(value, where):
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]+", value):
        raise YamlError(f"{where}: expected an unsigned integer, got {value!r}")
    return int(value)


def _field(mapping, key, where):
    if not isinstance(mapping, dict) or key not in mapping:
        raise YamlError(f"{where}: missing field {key}")
    return mapping[key]


def journal_chain(journal):
    """The records 000000.yaml, 000001.yaml, ... up to the first missing number, and every other
    entry of journal/ with why it is not part of the chain. A name starting with .tmp is the
    temporary file of an interrupted atomic write: never a record, so passed over."""
    entries = sorted(os.listdir(journal))
    def seq_of(name):
        m = re.fullmatch(r"([0-9]{6,})\.yaml", name)
        if m and f"{int(m.group(1)):06}.yaml" == name:
            return int(m.group(1))
        return None
    present = {seq_of(n) for n in entries
               if seq_of(n) is not None and os.path.isfile(os.path.join(journal, n))}
    chain = 0
    while chain in present:
        chain += 1
    strays = []
    for n in entries:
        seq = seq_of(n)
        if n.startswith(".tmp") or (seq is not None and seq < chain):
            continue
        if seq is None:
            strays.append((n, "not a journal record: records are named NNNNNN.yaml"))
        elif not os.path.isfile(os.path.join(journal, n)):
            strays.append((n, "a folder where a record belongs"))
        else:
            strays.append((n, f"not part of the chain: record {chain:06}.yaml is missing"))
    return [f"{s:06}.yaml" for s in range(chain)], strays

def audit(game_dir, game_key=None):
    """Returns (report dict, findings list). Raises YamlError/OSError on unreadable input."""
    config, _ = read_yaml(os.path.join(game_dir, "game.yaml"))
    game = _field(config, "id", "game.yaml")
    seat_list = _field(config, "seats", "game.yaml")
    seats = [_field(s, "side", f"game.yaml: seats[{i}]") for i, s in enumerate(seat_list)]
    journal = os.path.join(game_dir, "journal")
    names, strays = journal_chain(journal)
    if not names:
        raise YamlError(f"{journal}: no NNNNNN.yaml records")
    findings, steps = [f"journal/{n}: {why}" for n, why in strays], []
    report = {"game": game, "seats": seats, "records": len(names), "steps": steps}
    # A concluded game's last record reveals the host's secrets.
    last, _ = read_yaml(os.path.join(journal, names[-1]))
    conclusion = last.get("conclusion") if isinstance(last, dict) else None
    master = None
    if conclusion is not None:
        where = f"journal/{names[-1]}: conclusion"
        master = _hex32(_field(conclusion, "master", where), f"{where}.master")
        revealed = _hex32(_field(conclusion, "game_key", where), f"{where}.game_key")
        if game_key is not None and game_key != revealed:
            findings.append(f"{where}.game_key: differs from the --game-key given")
        game_key = revealed
        report["concluded"] = True
    prev_record, prev_hash = None, None
    for index, name in enumerate(names):
        where = f"journal/{name}"
        rec, raw = read_yaml(os.path.join(journal, name))
        seq = _int(_field(rec, "seq", where), f"{where}: seq")
        if seq != index or name != f"{seq:06}.yaml":
            findings.append(f"{where}: seq: says {seq}, expected {index}")
        if _field(rec, "game", where) != game:
            findings.append(f"{where}: game: says {rec['game']!r}, game.yaml says {game!r}")
        if index == 0:
            if rec.get("prev") is not None:
                findings.append(f"{where}: prev: the genesis record must not name a previous record")
            genesis = _field(rec, "genesis", where)
            if _field(genesis, "dice", f"{where}: genesis") != DICE_ALGORITHM:
                findings.append(f"{where}: genesis.dice: {genesis['dice']!r} is not {DICE_ALGORITHM}")
            g_seats = _field(genesis, "seats", f"{where}: genesis")
            g_sides = [_field(s, "side", f"{where}: genesis.seats") for s in g_seats]
            if g_sides != seats:
                findings.append(f"{where}: genesis.seats: sides {g_sides} differ from game.yaml {seats}")
            key_commit = _hex32(_field(genesis, "game_key_commit", where), where)
            if game_key is not None and commitment(game_key) != key_commit:
                findings.append(f"{where}: genesis.game_key_commit: does not match the given game key")
        elif _hex32(rec.get("prev"), f"{where}: prev") != prev_hash:
            findings.append(f"{where}: prev: says {rec.get('prev')}, "
                            f"SHA-256 of journal/{names[index - 1]} is {prev_hash.hex()}")
        step = rec.get("step")
        if step is not None and master is not None:
            number = _int(_field(step, "number", where), f"{where}: step.number")
            reveal = _hex32(_field(step, "host_reveal", where), f"{where}: step.host_reveal")
            if host_seed(master, number) != reveal:
                findings.append(f"{where}: step.host_reveal: not derived from the revealed master seed")
        if step is not None:
            fmt = rec.get("pbem")
            if fmt not in (JOURNAL_V1, JOURNAL_V2, JOURNAL_V3, JOURNAL_V4, JOURNAL_V5):
                findings.append(f"{where}: pbem: unknown journal format {fmt!r}")
            hidden_entropy = fmt in (JOURNAL_V2, JOURNAL_V3, JOURNAL_V4, JOURNAL_V5)
            out = audit_step(game, seats, where, seq, step, prev_record, findings,
                             game_dir, game_key, hidden_entropy)
            revealed = audit_reveals(where, step, steps, game_key, findings)
            if revealed:
                out["reveals"] = revealed
            if fmt != JOURNAL_V5 and (step.get("reveals") or step.get("key_commits")):
                findings.append(f"{where}: pbem: a {fmt} record commits to or reveals sealed keys ({JOURNAL_V5} does)")
            steps.append(out)
            if conclusion is not None:
                audit_orders(game_dir, where, seq, step, hidden_entropy, findings)
        prev_record, prev_hash = rec, hashlib.sha256(raw).digest()
    return report, findings


def audit_step(game, seats, where, seq, st, prev_record, findings, game_dir, game_key, v2):
    number = _int(_field(st, "number", where), f"{where}: step.number")
    opened = (prev_record or {}).get("next")
    reveal = _hex32(_field(st, "host_reveal", where), f"{where}: step.host_reveal")
    if opened is None:
        findings.append(f"{where}: step: follows a record that opened no step")
    else:
        if _int(_field(opened, "step", where), where) != number:
            findings.append(f"{where}: step.number: says {number}, the open step was {opened['step']}")
        if commitment(reveal) != _hex32(_field(opened, "host_commit", where), where):
            findings.append(f"{where}: step.host_reveal: does not match the commitment "
                            f"{opened['host_commit']} published one record earlier")
    if _field(st, "dice_algorithm", where) != DICE_ALGORITHM:
        findings.append(f"{where}: step.dice_algorithm: {st['dice_algorithm']!r} is not {DICE_ALGORITHM}")
    entropy = {}
    for k, o in enumerate(_field(st, "orders", where) or []):
        side = _field(o, "side", f"{where}: step.orders[{k}]")
        if side not in seats or side in entropy:
            findings.append(f"{where}: step.orders[{k}]: side {side!r} is not a seat or appears twice")
        # journal/2 publishes only a hash of the order's secret entropy; journal/1 the entropy.
        key = "dice_entropy" if v2 else "entropy"
        entropy[side] = _hex32(_field(o, key, where), f"{where}: step.orders[{k}].{key}")
    seed = step_seed(game, number, reveal, [(s, entropy.get(s)) for s in seats])
    if seed != _hex32(_field(st, "seed", where), f"{where}: step.seed"):
        findings.append(f"{where}: step.seed: says {st['seed']}, recomputed {seed.hex()}")
    dice, labels = [], set()
    for k, roll in enumerate(_field(st, "dice", where) or []):
        at = f"{where}: step.dice[{k}]"
        label = _field(roll, "label", at)
        faces = _int(_field(roll, "faces", at), f"{at}.faces")
        values = [_int(v, f"{at}.values") for v in (_field(roll, "values", at) or [])]
        if label in labels:
            findings.append(f"{at}: label {label} appears twice")
        labels.add(label)
        if not 1 <= faces < 2**32:
            findings.append(f"{at} ({label}): faces must be in 1..2^32-1, not {faces}")
            continue
        again = public_roll(seed, label, len(values), faces)
        dice.append({"label": label, "faces": faces, "values": again})
        if again != values:
            findings.append(f"{at} ({label}): journal says {values}, recomputed {again}")
    out = {"record": seq, "step": number, "seed": seed.hex(), "dice": dice}
    commits = {}
    for k, c in enumerate(st.get("key_commits") or []):
        at = f"{where}: step.key_commits[{k}]"
        label = _field(c, "label", at)
        if label in commits:
            findings.append(f"{at} ({label}): committed twice")
        commits[label] = _hex32(_field(c, "commit", at), f"{at}.commit")
    if commits:
        out["key_commits"] = {label: c.hex() for label, c in commits.items()}
    if game_key is not None:
        out["sealed"] = audit_sealed(game_dir, game_key, where, seq, number, seed, st, findings)
    return out


def audit_reveals(where, st, earlier, game_key, findings):
    """journal/5: each revealed sealed draw must name a step an earlier record resolved and hold
    the values its key gives; with the game key, the key must be the sealed stream key of that
    step and label, and the draw the one that step's sealed transcript holds."""
    out, seen = [], set()
    for k, r in enumerate(st.get("reveals") or []):
        at = f"{where}: step.reveals[{k}]"
        number = _int(_field(r, "step", at), f"{at}.step")
        label = _field(r, "label", at)
        key = _hex32(_field(r, "key", at), f"{at}.key")
        ranges = [_int(v, f"{at}.range") for v in (_field(r, "range", at) or [])]
        values = [_int(v, f"{at}.values") for v in (_field(r, "values", at) or [])]
        if (number, label) in seen:
            findings.append(f"{at} ({label} of step {number}): revealed twice")
        seen.add((number, label))
        if not all(1 <= n < 2**32 for n in ranges) or len(ranges) != len(values):
            findings.append(f"{at} ({label}): one value per range, each range in 1..2^32-1")
            continue
        s = Stream(key)
        again = [s.below(n) for n in ranges]
        out.append({"step": number, "label": label, "range": ranges, "values": again})
        if again != values:
            findings.append(f"{at} ({label} of step {number}): journal says {values}, its key gives {again}")
        drawn_in = [e for e in earlier if e["step"] == number]
        if not drawn_in:
            findings.append(f"{at} ({label}): no earlier record resolved step {number}")
            continue
        committed = drawn_in[0].get("key_commits", {}).get(label)
        if committed is None:
            findings.append(f"{at} ({label}): step {number} committed to no key for {label}")
        elif committed != sealed_key_commit(label, key).hex():
            findings.append(f"{at} ({label}): the key does not open the commitment of step {number}")
        if game_key is None:
            continue
        e = drawn_in[0]
        if sealed_stream_key(game_key, bytes.fromhex(e["seed"]), label) != key:
            findings.append(f"{at} ({label} of step {number}): the key is not the game key's "
                            f"sealed stream key of that step and label")
        if not any(d["label"] == label and d["range"] == ranges and d["values"] == values
                   for d in e.get("sealed") or []):
            findings.append(f"{at} ({label} of step {number}): the sealed transcript of record "
                            f"{e['record']} holds no such draw")
    return out


def order_document(file_bytes, detached):
    """The signed document of an order file: line endings normalised to LF; for a single signed
    file, everything before the line `# -----BEGIN SSH SIGNATURE-----` (docs/dice.md)."""
    norm = file_bytes.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if detached:
        return norm
    offset = 0
    for line in norm.split(b"\n"):
        text = line.decode("utf-8", "replace").strip()
        if text.startswith("#") and text[1:].strip() == EMBEDDED_BEGIN:
            return norm[:offset]
        offset += len(line) + 1
    return norm


def audit_orders(game_dir, where, seq, st, v2, findings):
    """A concluded game publishes the orders used: each must hash to the journal's commitment,
    and (journal/2) its entropy must give the record's dice_entropy."""
    for k, o in enumerate(_field(st, "orders", where) or []):
        side = _field(o, "side", f"{where}: step.orders[{k}]")
        name = f"archive/orders/{seq:06}-{side}.yaml"
        path = os.path.join(game_dir, name)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError as e:
            findings.append(f"{name}: cannot read: {e.strerror}")
            continue
        doc = order_document(raw, os.path.exists(path + ".sig"))
        if hashlib.sha256(doc).digest() != _hex32(_field(o, "hash", where), f"{where}: step.orders[{k}].hash"):
            findings.append(f"{name}: its SHA-256 is not the order hash of {where}")
        found = re.search(rb"^entropy:[ \t]*['\"]?([0-9a-fA-F]{64})['\"]?[ \t]*$", doc, re.M)
        if found is None:
            findings.append(f"{name}: no entropy line")
            continue
        secret = bytes.fromhex(found.group(1).decode())
        public = dice_entropy(secret) if v2 else secret
        key = "dice_entropy" if v2 else "entropy"
        if public != _hex32(_field(o, key, where), f"{where}: step.orders[{k}].{key}"):
            findings.append(f"{name}: its entropy does not give step.orders[{k}].{key} of {where}")


def audit_sealed(game_dir, game_key, where, seq, number, seed, st, findings):
    # A concluded game publishes archive/; the host itself has host/.
    folder = "archive" if os.path.isdir(os.path.join(game_dir, "archive", "sealed")) else "host"
    path = os.path.join(game_dir, folder, "sealed", f"{seq:06}.yaml")
    name = f"{folder}/sealed/{seq:06}.yaml"
    draws, raw = read_yaml(path)
    if sealed_commit(game_key, number, raw) != _hex32(_field(st, "sealed_commit", where), where):
        findings.append(f"{where}: step.sealed_commit: does not match {name}")
    out = []
    for k, d in enumerate(draws or []):
        at = f"{name}: [{k}]"
        label = _field(d, "label", at)
        ranges = [_int(v, f"{at}.range") for v in (_field(d, "range", at) or [])]
        values = [_int(v, f"{at}.values") for v in (_field(d, "values", at) or [])]
        if not all(1 <= n < 2**32 for n in ranges):
            findings.append(f"{at} ({label}): every range must be in 1..2^32-1, not {ranges}")
            continue
        again = sealed_draws(game_key, seed, label, ranges)
        out.append({"label": label, "range": ranges, "values": again})
        if again != values:
            findings.append(f"{at} ({label}): file says {values}, recomputed {again}")
    return out


# --------------------------------------------------------------------------------------------
# Published test vectors (docs/dice.md, "Test vectors")

RFC8439_2_3_2 = (
    "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
    "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
)
RFC8439_A1_TV1 = (
    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
)
RFC8439_A1_TV2 = (
    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
    "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
)

VECTOR_GAME = "vectors-game"
VECTOR_STEP = 3
VECTOR_REVEAL = bytes(range(0x00, 0x20))
VECTOR_MASTER = bytes([0x6D] * 32)
VECTOR_SEATS = [("blue", bytes(range(0x20, 0x40))), ("red", None), ("green", bytes([0xA5] * 32))]
VECTOR_LABELS = ["combat/C08/r2/U17", "morale/B-A01"]
VECTOR_GAME_KEY = bytes(range(0xE0, 0x100))
VECTOR_SEALED_YAML = (
    "- label: deck/chits\n  range:\n  - 10\n  - 9\n  - 8\n  - 7\n  - 6\n  - 5\n  - 4\n  - 3\n  - 2\n"
    "  values:\n  - 7\n  - 6\n  - 2\n  - 6\n  - 3\n  - 0\n  - 0\n  - 2\n  - 0\n  note: chits\n"
    "- label: cup/german/1\n  range:\n  - 17\n  values:\n  - 6\n"
)


def compute_vectors():
    seed = step_seed(VECTOR_GAME, VECTOR_STEP, VECTOR_REVEAL, VECTOR_SEATS)
    first = Stream(public_stream_key(seed, VECTOR_LABELS[0]))
    for _ in range(12):
        first.word()
    reject_a = Stream(public_stream_key(seed, VECTOR_LABELS[0]))
    reject_b = Stream(public_stream_key(seed, VECTOR_LABELS[0]))
    deck = Stream(sealed_stream_key(VECTOR_GAME_KEY, seed, "deck/chits"))
    for n in range(10, 1, -1):
        deck.below(n)
    return {
        "commitment": commitment(VECTOR_REVEAL).hex(),
        "host_seed": host_seed(VECTOR_MASTER, VECTOR_STEP).hex(),
        "step_seed": seed.hex(),
        "public_keys": {label: public_stream_key(seed, label).hex() for label in VECTOR_LABELS},
        "words": first.words,
        "d6": {label: public_roll(seed, label, 10, 6) for label in VECTOR_LABELS},
        "below_3x2p30": [reject_a.below(3 << 30) for _ in range(4)],
        "below_3x2p30_words_used": len(reject_a.words),
        "below_3x2p29": [reject_b.below(3 << 29) for _ in range(4)],
        "game_key_commitment": commitment(VECTOR_GAME_KEY).hex(),
        "sealed_key": sealed_stream_key(VECTOR_GAME_KEY, seed, "deck/chits").hex(),
        "sealed_key_commit": sealed_key_commit(
            "deck/chits", sealed_stream_key(VECTOR_GAME_KEY, seed, "deck/chits")).hex(),
        "deck_words": deck.words,
        "cup_key": sealed_stream_key(VECTOR_GAME_KEY, seed, "cup/german/1").hex(),
        "shuffle_draws": sealed_draws(VECTOR_GAME_KEY, seed, "deck/chits", list(range(10, 1, -1))),
        "shuffle": sealed_shuffle(VECTOR_GAME_KEY, seed, "deck/chits", range(10)),
        "sealed_index": sealed_draws(VECTOR_GAME_KEY, seed, "cup/german/1", [17])[0],
        "sealed_commit": sealed_commit(VECTOR_GAME_KEY, VECTOR_STEP, VECTOR_SEALED_YAML.encode()).hex(),
        "empty_sealed_commit": sealed_commit(VECTOR_GAME_KEY, VECTOR_STEP, b"[]\n").hex(),
        "dice_entropy_blue": dice_entropy(VECTOR_SEATS[0][1]).hex(),
    }


PUBLISHED = {
    "commitment": "f1bf1bc3ea5a338db49551be796330cdc86984aa53c6480ee30fd846084a133a",
    "host_seed": "7832c36c2ce71b9a3d5cb98ff2e961ac8f0cc00a30eede430aecbc5f8465ab7c",
    "step_seed": "6a08c0459a789145c9f53b65d735128a7a84fdb9a4bcafd8f17c6cc95f150ff0",
    "public_keys": {
        "combat/C08/r2/U17": "b2af3220428e476150e9b6c348ac1651765f36bcbd384275851f8f5c56cee523",
        "morale/B-A01": "e000c0e339de9ad51c9b23c37e0fc2df9c4e57e59f06313f16fb22119452352e",
    },
    "words": [0xC12D6060, 0xA89BF0FA, 0xE65AA6EA, 0xF3CA46D8, 0xF825758B, 0x03CD6215,
              0xE2E8A5F7, 0xC256E9D8, 0x39DE2068, 0x97169FB5, 0x80F17E8D, 0x0A9E93F6],
    "d6": {
        "combat/C08/r2/U17": [5, 1, 1, 3, 2, 4, 4, 1, 5, 4],
        "morale/B-A01": [1, 3, 6, 5, 6, 1, 1, 2, 2, 4],
    },
    "below_3x2p30": [2828792058, 63791637, 970858600, 2534842293],
    "below_3x2p30_words_used": 10,
    "below_3x2p29": [1218179322, 63791637, 970858600, 924229557],
    "game_key_commitment": "d30ec2ff4f58898437b64c49a709896520dd23d70bb2cfa546436eda6c92471a",
    "sealed_key": "5b54c160a242966f0474d95d95934736415a99a3db2828a48a5c33bf4c4ca943",
    "sealed_key_commit": "8df1fbea6dc2cb25f26ecb6f19fcf907e0a427d97b66acc131ee0adfcb653337",
    "deck_words": [0x33936A35, 0x8A32C310, 0xA38ECBD2, 0xF9ABE7B9, 0x8DF92025, 0x7611D548,
                   0x358994A0, 0x751B56ED, 0xAFAC4B8A],
    "cup_key": "22224066bc2d3becca10e8bc47e9c2d68b5e9df930aefc5c9250fa654ce1149d",
    "shuffle_draws": [7, 6, 2, 6, 3, 0, 0, 2, 0],
    "shuffle": [1, 5, 9, 4, 0, 3, 8, 2, 6, 7],
    "sealed_index": 6,
    "empty_sealed_commit": "864a380a8f240136fe685889336834d323b73f81de39b83e11fec1784eb6d134",
    "sealed_commit": "74472b1db3873238e98afd9ccf0e33a8e77a5c3c5fca3a74c0ab57f7a2484224",
    "dice_entropy_blue": "3d77e8e03b36e3889ea8a61fc8d2cf0374acade90897a8c1fef6513c3660b891",
}


def self_test():
    failures = []

    def check(name, got, want):
        print(f"{'ok  ' if got == want else 'FAIL'} {name}")
        if got != want:
            failures.append(f"{name}: got {got}, want {want}")

    check("RFC 8439 2.3.2 block (key 00..1f, nonce 000000090000004a00000000, counter 1)",
          chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000")).hex(), RFC8439_2_3_2)
    check("RFC 8439 A.1 test vector 1 (zero key, zero nonce, counter 0)",
          chacha20_block(bytes(32), 0, bytes(12)).hex(), RFC8439_A1_TV1)
    check("RFC 8439 A.1 test vector 2 (zero key, zero nonce, counter 1)",
          chacha20_block(bytes(32), 1, bytes(12)).hex(), RFC8439_A1_TV2)
    zero = Stream(bytes(32))
    words = [zero.word() for _ in range(32)]
    check("stream of the zero key = A.1 vectors 1 and 2 as little-endian words",
          struct.pack("<32I", *words).hex(), RFC8439_A1_TV1 + RFC8439_A1_TV2)
    got = compute_vectors()
    for name, want in PUBLISHED.items():
        check(f"docs/dice.md vector {name}", got[name], want)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


# --------------------------------------------------------------------------------------------


def main(argv):
    args = argv[1:]
    if args == ["--self-test"]:
        return self_test()
    if args == ["--vectors"]:
        print(json.dumps(compute_vectors(), indent=1, sort_keys=True))
        return 0
    as_json, game_key, rest = False, None, []
    while args:
        a = args.pop(0)
        if a == "--json":
            as_json = True
        elif a == "--game-key" and args:
            key = args.pop(0)
            if not re.fullmatch(r"[0-9a-fA-F]{64}", key):
                print("dice_audit: --game-key needs 64 hexadecimal digits", file=sys.stderr)
                return 2
            game_key = bytes.fromhex(key)
        elif a.startswith("-"):
            rest = []
            break
        else:
            rest.append(a)
    if len(rest) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        report, findings = audit(rest[0], game_key)
    except (YamlError, OSError) as e:
        print(f"dice_audit: {e}", file=sys.stderr)
        return 2
    report["findings"] = findings
    report["ok"] = not findings
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        dice = sum(len(s["dice"]) for s in report["steps"])
        print(f"game {report['game']}: {report['records']} records, "
              f"{len(report['steps'])} steps, {dice} public dice")
        for s in report["steps"]:
            print(f"  step {s['step']} (record {s['record']}): seed {s['seed']}, {len(s['dice'])} dice")
            for r in s.get("reveals", []):
                print(f"    reveals {r['label']} of step {r['step']}: values {r['values']}")
        for f in findings:
            print(f"FAIL {f}")
        print("all checks passed" if not findings else f"{len(findings)} check(s) failed")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
