#!/usr/bin/env python3
"""An independent Philox4x32-10 (Salmon et al. 2011; cuRAND's rounds and
constants) that produced the GA-stream vectors in test_ga_rng.c. The first
three vectors are Random123's published known answers (kat_vectors)."""
M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def rnd(c, k):
    p0, p1 = M0 * c[0], M1 * c[2]
    return [((p1 >> 32) ^ c[1] ^ k[0]) & MASK, p1 & MASK, ((p0 >> 32) ^ c[3] ^ k[1]) & MASK, p0 & MASK]


def philox(c, k):
    c = rnd(c, k)
    for _ in range(9):
        k = [(k[0] + W0) & MASK, (k[1] + W1) & MASK]
        c = rnd(c, k)
    return c


if __name__ == "__main__":
    seed = 0x123456789ABCDEF0
    key = [seed & MASK, seed >> 32]
    for ctr in ([0, 0, 0, 0], [1, 7, 3, 4], [5, 1000, 200, 2]):
        print(ctr, " ".join("%08x" % x for x in philox(ctr, key)))
