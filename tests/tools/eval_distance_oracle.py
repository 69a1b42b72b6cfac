#!/usr/bin/env python3
"""Oracle for core/eval's string and JSON distances (tests/core/eval/tst_evaluators.cpp).

Generates cases from a fixed seed and computes, with Python's own string and json modules and
a textbook dynamic-programming Levenshtein written here independently of Hako's:
  levenshtein  - edits between two strings, counted in code points
  json_dist    - Levenshtein between json.dumps(x, sort_keys=True, separators=(",", ":"),
                 ensure_ascii=False) of both values, divided by the longer form's length
Prints one JSON object per case.
"""
import json
import random
import sys

ALPHABETS = [
    "abcde",
    "あいうえおかきくけこ漢字",
    "aé🙂日本",  # astral characters are one code point each
    "xy \n\t\"\\",
]


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def rand_string(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


def mutate(rng, s, alphabet):
    s = list(s)
    for _ in range(rng.randint(0, 4)):
        op = rng.randint(0, 2)
        if op == 0 and s:
            del s[rng.randrange(len(s))]
        elif op == 1:
            s.insert(rng.randint(0, len(s)), rng.choice(alphabet))
        elif s:
            s[rng.randrange(len(s))] = rng.choice(alphabet)
    return "".join(s)


def rand_json(rng, depth=0):
    kind = rng.randint(0, 6 if depth < 3 else 3)
    if kind == 0:
        return rng.randint(-1000, 1000)
    if kind == 1:
        return rand_string(rng, rng.choice(ALPHABETS), rng.randint(0, 6))
    if kind == 2:
        return rng.choice([True, False, None])
    if kind == 3:
        return rng.randint(0, 9)
    if kind == 4:
        return [rand_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rand_string(rng, "kqzあ", rng.randint(1, 3)): rand_json(rng, depth + 1)
            for _ in range(rng.randint(0, 3))}


def mutate_json(rng, v, depth=0):
    if rng.random() < 0.3:
        return rand_json(rng, depth)
    if isinstance(v, dict):
        out = dict(v)
        if out and rng.random() < 0.5:
            k = rng.choice(list(out))
            out[k] = mutate_json(rng, out[k], depth + 1)
        # Reversed insertion order: key order must not matter.
        return dict(reversed(list(out.items())))
    if isinstance(v, list):
        return [mutate_json(rng, x, depth + 1) if rng.random() < 0.4 else x for x in v]
    return v


def canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 14)
    for _ in range(300):
        alphabet = rng.choice(ALPHABETS)
        a = rand_string(rng, alphabet, rng.randint(0, 12))
        b = mutate(rng, a, alphabet) if rng.random() < 0.7 else rand_string(rng, alphabet, rng.randint(0, 12))
        print(json.dumps({"kind": "levenshtein", "a": a, "b": b, "distance": levenshtein(a, b)},
                         ensure_ascii=False))
    for _ in range(300):
        x = rand_json(rng)
        y = mutate_json(rng, x) if rng.random() < 0.7 else rand_json(rng)
        ca, cb = canonical(x), canonical(y)
        longest = max(len(ca), len(cb))
        dist = levenshtein(ca, cb) / longest if longest else 0.0
        print(json.dumps({"kind": "json", "a": x, "b": y, "canonical_a": ca,
                          "distance": dist}, ensure_ascii=False))


if __name__ == "__main__":
    main()
