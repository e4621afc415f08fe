#!/usr/bin/env python3
"""Recomputes the ranking of a public call of outorga from its published JSON
(GET /api/public/jurisdictions/{j}/calls/{ano}/{numero}) and its tie draws'
(…/draws/{ano}/{numero}), URLs or saved files:
  python3 recompute-call.py chamamento.json sorteio.json
Each eligible applicant's points from what they showed and the edital's
criteria; the ranking by total, then the edital's tie-break criteria, then
the order of the latest draw that listed them (tickets SHA-256 of
"<seed>\\n<label>"). Exits 1 when the published ranking differs."""
import hashlib, json, sys, urllib.request
from decimal import Decimal as D

def load(src):
    return json.load(urllib.request.urlopen(src) if "://" in src else open(src, encoding="utf-8"))

call, draws = load(sys.argv[1]), [load(s) for s in sys.argv[2:]]
drawn = {}
for draw in draws:  # oldest first: a later draw's order prevails
    labels = [p["rotulo"] for p in draw["participantes"]]
    tickets = {l: hashlib.sha256(f"{draw['semente']}\n{l}".encode()).hexdigest() for l in labels}
    for position, label in enumerate(sorted(labels, key=lambda l: (tickets[l], l)), 1):
        drawn[label] = position
def points(a, c):
    earned = D(a["mostrado"]["quantidades"].get(c["chave"], "0")) * D(c["pontos_por_unidade"])
    return min(earned, D(c["maximo"])) if c["maximo"] is not None else earned
eligible = [a for a in call["inscricoes"] if a["triagem"] and a["triagem"]["habilitado"]]
def standing(a):
    by = {c["chave"]: points(a, c) for c in call["criterios"]}
    return ([-sum(by.values())] + [-by[k] for k in call["desempate"]], drawn.get(a["rotulo"], 0))
ranking = sorted(eligible, key=standing)
ok = all(D(a["triagem"]["total"]) == -standing(a)[0][0] for a in eligible)
ok = ok and [a["rotulo"] for a in ranking] == [a["rotulo"] for a in sorted(eligible, key=lambda a: a["classificacao"])]
for position, a in enumerate(ranking, 1):
    print(f"{position}. {a['rotulo']}  {-standing(a)[0][0]} pontos  {a['nome']}")
print("confere" if ok else "NÃO CONFERE")
sys.exit(0 if ok else 1)
