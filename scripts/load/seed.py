#!/usr/bin/env python3
"""Seeds autos through the JSON API (docs/benchmarks.md, issue 12): every
auto is issued and notified by the same workflows as in production, so the
audit chain stays intact.

Usage: seed.py BASE J INSPECTOR_TOKEN CLERK_TOKEN WHAT COUNT [ARGS]
  permit SERVICE NUMBER HOLDER  COUNT autos under that permit (left issued)
  notified HOLDERS               COUNT autos, offenders in turn among the
                                 comma-separated HOLDERS, each notified
Requests go in 4 threads over kept-alive connections."""
import http.client, json, sys, threading, urllib.parse

base, j, inspector, clerk, what, count = sys.argv[1:7]
count = int(count)
rest = sys.argv[7:]
url = urllib.parse.urlparse(base)
RULEBOOK = {"santa-maria-de-jetiba": ("santa-maria-de-jetiba/taxi", "51-I-a")}[j]


def post(conn, path, token, body):
    conn.request("POST", path, json.dumps(body), {
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    answer = conn.getresponse()
    data = answer.read()
    if answer.status >= 300:
        raise SystemExit(f"{path}: {answer.status} {data[:300]!r}")
    return json.loads(data)


def worker(k, n):
    conn = http.client.HTTPConnection(url.hostname, url.port)
    for i in range(n):
        auto = {"infracao": RULEBOOK[1], "cometida_em": "2026-11-28T10:00",
                "local": "Praça Central", "descricao": "carga do painel"}
        if what == "permit":
            service, number, holder = rest
            auto |= {"autuado": holder, "permissao": {"servico": service, "numero": int(number)}}
        else:
            holders = rest[0].split(",")
            auto |= {"autuado": holders[(k * n + i) % len(holders)], "regulamento": RULEBOOK[0]}
        issued = post(conn, f"/api/jurisdictions/{j}/autos", inspector, auto)
        if what == "notified":
            post(conn, f"/api/jurisdictions/{j}/autos/{issued['ano']}/{issued['numero']}/steps",
                 clerk, {"passo": "notificar"})


threads = [threading.Thread(target=worker, args=(k, count // 4 + (1 if k < count % 4 else 0)))
           for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
