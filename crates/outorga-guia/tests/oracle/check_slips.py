"""An independent check of what outorga-guia makes.

Reads a file of JSON lines written by tests/oracle.rs and checks each record
with code that shares nothing with the crate:

- slip: febraban-barcode (PyPI) builds the 44 digits again from the same
  parts and computes the linha digitável; its decoder must find the 48 digits
  valid and give back the code.
- pix: the CRC16-CCITT-FALSE of Python's binascii (crc_hqx, initial 0xFFFF), a
  plain TLV reader written here, the PyPI package brcode's parser, and
  unicodedata's NFKD for the names and cities without accents.
- svg: python-barcode's Interleaved 2 of 5 (narrow 1, wide 3) against the bars
  read from the SVG's path.
- retorno: febraban-barcode's registro_A, registro_G and registro_Z write the
  same header, payments and trailer again, line for line.

Usage: python3 check_slips.py FILE. Prints one line per failure and a last
line "N passed, M failed"; exits 1 when anything failed.
"""

import binascii
import json
import re
import sys
import unicodedata
from datetime import date
from decimal import Decimal

import brcode
from barcode.itf import ITF
from febraban_barcode import (
    calcular_dac,
    decode_codigo_de_barras,
    gerar_numeracao_codigo_de_barras,
)
from febraban_barcode.retorno import registro_A, registro_G, registro_Z


class Cents(float):
    """A value in reais for febraban-barcode, which computes int(valor * 100):
    multiplying by 100 gives the exact centavos instead of a rounded float."""

    def __new__(cls, cents):
        obj = super().__new__(cls, cents / 100)
        obj.cents = cents
        return obj

    def __mul__(self, other):
        assert other == 100
        return self.cents


def digits(text):
    return "".join(c for c in text if c.isdigit())


def check_slip(r):
    due = date.fromisoformat(r["due"]) if r["due"] else None
    again = gerar_numeracao_codigo_de_barras(
        produto=8,
        segmento=r["segment"],
        codigo_moeda=r["value_id"],
        valor=Cents(r["cents"]),
        id_empresa_orgao=r["company"],
        dados_campo_livre=r["own"],
        vencimento=due,
    )
    assert again == r["codigo"], f"febraban-barcode makes {again}"
    line = digits(calcular_dac(r["codigo"]))
    assert line == digits(r["linha"]), f"febraban-barcode's line is {line}"
    decoded = decode_codigo_de_barras(line, as_dict=True)
    assert decoded["valido"], f"febraban-barcode finds it invalid: {decoded['erro']}"
    assert decoded["codigo_de_barras_44"] == r["codigo"]
    # A wrong block digit must be caught.
    wrong = line[:11] + str((int(line[11]) + 1) % 10) + line[12:]
    assert not decode_codigo_de_barras(wrong, as_dict=True)["valido"]


def tlv(payload):
    """The fields of an EMV MPM payload, checking every length."""
    fields, i = {}, 0
    while i < len(payload):
        tag, size = payload[i : i + 2], int(payload[i + 2 : i + 4])
        value = payload[i + 4 : i + 4 + size]
        assert len(value) == size, f"field {tag} is cut short"
        assert tag not in fields, f"field {tag} twice"
        fields[tag] = value
        i += 4 + size
    return fields


def plain(text):
    return (
        unicodedata.normalize("NFKD", text.strip())
        .encode("ascii", "ignore")
        .decode("ascii")
    )


def check_pix(r):
    p = r["payload"]
    assert p.isascii(), "not ASCII"
    assert p[-8:-4] == "6304", "does not end in the CRC field"
    crc = "%04X" % binascii.crc_hqx(p[:-4].encode("ascii"), 0xFFFF)
    assert p[-4:] == crc, f"CRC {p[-4:]}, binascii gives {crc}"

    f = tlv(p)
    assert list(f) == [
        t
        for t in ["00", "26", "52", "53", "54", "58", "59", "60", "62", "63"]
        if t != "54" or r["amount_cents"] is not None
    ], f"fields {list(f)}"
    account = tlv(f["26"])
    txid = r["txid"] or "***"
    amount = None
    if r["amount_cents"] is not None:
        amount = str(Decimal(r["amount_cents"]) / 100)
        amount = str(Decimal(amount).quantize(Decimal("0.01")))
    expected = {
        "00": "01",
        "52": "0000",
        "53": "986",
        "58": "BR",
        "59": plain(r["name"]),
        "60": plain(r["city"]),
        "63": crc,
    }
    if amount is not None:
        expected["54"] = amount
    for tag, value in expected.items():
        assert f[tag] == value, f"field {tag} is {f[tag]!r}, expected {value!r}"
    assert account == {"00": "br.gov.bcb.pix", "01": r["key"]}, f"account {account}"
    assert tlv(f["62"]) == {"05": txid}, f"additional data {f['62']}"

    q = brcode.QR(p)
    seen = {
        "PFI_value": "01",
        "MAI_GUI_value": "br.gov.bcb.pix",
        "MAI_CHAVEPIX_value": r["key"],
        "MCC_value": "0000",
        "TC_value": "986",
        "CC_value": "BR",
        "MN_value": plain(r["name"]),
        "MC_value": plain(r["city"]),
        "ADF_REF_value": txid,
        "CRC_value": crc,
    }
    if amount is not None:
        seen["TA_value"] = amount
    for attr, value in seen.items():
        assert getattr(q, attr) == value, f"brcode reads {attr} = {getattr(q, attr)!r}"


def check_svg(r):
    svg = r["svg"]
    assert 'width="113.03mm" height="13mm"' in svg, "printed size"
    bars = [(int(x), int(w)) for x, w in re.findall(r"M(\d+),0h(\d+)V", svg)]
    assert bars[0][0] == 20, "quiet zone before the start"
    modules = ""
    for i, (x, w) in enumerate(bars):
        if i:
            px, pw = bars[i - 1]
            modules += "0" * (x - px - pw)
        modules += "1" * w
    total = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
    assert total - bars[-1][0] - bars[-1][1] == 20, "quiet zone after the stop"
    expected = ITF(r["codigo"], narrow=1, wide=3).build()[0]
    assert modules == expected, "bars differ from python-barcode's ITF"


def check_retorno(r):
    h = r["header"]
    lines = [
        registro_A(
            codigo_convenio=h["convenio"],
            nome_empresa=h["company"],
            codigo_banco=str(h["bank_code"]),
            nome_banco=h["bank_name"],
            data_geracao=h["file_date"].replace("-", ""),
            nsa=str(h["nsa"]),
            versao_layout="%02d" % h["layout_version"],
        )
    ]
    for p in r["payments"]:
        a = p["account"]
        lines.append(
            registro_G(
                codigo_banco=a[:3],
                agencia=a[3:7],
                conta=a[7:19],
                conta_digito=a[19],
                data_pagamento=p["paid_on"].replace("-", ""),
                data_credito=p["credited_on"].replace("-", ""),
                codigo_de_barras_44=p["codigo_barras"],
                valor_recebido=Cents(p["cents"]),
                valor_tarifa=Cents(p["tariff_cents"]),
                nsr=p["nsr"],
                codigo_agencia=p["agency"],
                forma_arrecadacao=p["capture"],
                autenticacao=p["authentication"],
                forma_pagamento=str(p["payment_form"]),
            )
        )
    total = sum(p["cents"] for p in r["payments"])
    lines.append(registro_Z(len(r["payments"]) + 2, Cents(total)))
    written = r["text"].split("\r\n")
    assert written[-1] == "", "the file ends with CRLF"
    assert len(written) - 1 == len(lines), "number of records"
    for n, (ours, theirs) in enumerate(zip(written, lines), start=1):
        assert ours == theirs, f"line {n}:\n  ours   {ours!r}\n  theirs {theirs!r}"


CHECKS = {
    "slip": check_slip,
    "pix": check_pix,
    "svg": check_svg,
    "retorno": check_retorno,
}


def main(path):
    passed, failed, kinds = 0, 0, {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            record = json.loads(line)
            kind = record["kind"]
            kinds[kind] = kinds.get(kind, 0) + 1
            try:
                CHECKS[kind](record)
                passed += 1
            except AssertionError as e:
                failed += 1
                print(f"line {n} ({kind}): {e}")
    print("checked: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
