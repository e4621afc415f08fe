#!/usr/bin/env python3
"""Recomputes a public draw of outorga from its published JSON (GET
/api/public/jurisdictions/{j}/draws/{ano}/{numero}, or a saved file):
  python3 recompute-draw.py https://…/api/public/jurisdictions/cangucu/draws/2026/1
It checks the list's SHA-256, each ticket and the order; exits 1 on a mismatch."""
import hashlib, json, sys, urllib.request

src = sys.argv[1]
draw = json.load(urllib.request.urlopen(src) if "://" in src else open(src, encoding="utf-8"))
labels = [p["rotulo"] for p in draw["participantes"]]
listed = hashlib.sha256("".join(l + "\n" for l in labels).encode()).hexdigest()
tickets = {l: hashlib.sha256(f"{draw['semente']}\n{l}".encode()).hexdigest() for l in labels}
order = sorted(labels, key=lambda l: (tickets[l], l))
ok = listed == draw["hash_lista"] and order == draw["ordem"]
ok = ok and all(p["bilhete"] == tickets[p["rotulo"]] for p in draw["participantes"])
for position, label in enumerate(order, 1):
    print(f"{position}. {label}  {tickets[label]}")
print("confere" if ok else "NÃO CONFERE")
sys.exit(0 if ok else 1)
