"""Cybersecurity: vulnerability, exposure and threat intelligence for a security team."""

from __future__ import annotations

import math
import random
import re
from dataclasses import replace
from datetime import date, timedelta
from functools import cache

from pydantic import BaseModel

from toolchaos.core.tools import array, boolean, choice, integer, nullable, number, string
from toolchaos.suites.toolfailbench._kit import (
    BASE_DATE,
    Calculation,
    Call,
    Concept,
    DomainKit,
    LabelTrap,
    NumberTrap,
    Question,
    Target,
    ToolDef,
    assemble,
    canon_text,
    declare,
    figure,
    load_table,
)

# --------------------------------------------------------------------------- tables


class Cve(BaseModel):
    """A well-known vulnerability as people remember it."""

    id: str
    name: str
    vendor: str
    product: str
    cvss: float
    cwe: str
    published: str
    fixed_version: str | None
    epss: float
    in_kev: bool


class Cwe(BaseModel):
    """A weakness of the 2023 CWE Top 25."""

    id: str
    name: str
    rank: int


class Port(BaseModel):
    """A well-known service port and its rough internet exposure."""

    port: int
    protocol: str
    service: str
    exposed_hosts: int


class Malware(BaseModel):
    """A famous malware family."""

    name: str
    type: str
    first_seen: int
    infections: int


class Algorithm(BaseModel):
    """A cryptographic algorithm and its security strength in bits."""

    name: str
    family: str
    key_bits: int
    security_bits: int


class Breach(BaseModel):
    """A well-known data breach."""

    organization: str
    year: int
    records_m: float


class Product(BaseModel):
    """A product and a guess at its yearly CVE count."""

    name: str
    cves_2023: int


class Tables(BaseModel):
    """The cybersecurity data table."""

    cves: list[Cve]
    cwes: list[Cwe]
    ports: list[Port]
    malware: list[Malware]
    algorithms: list[Algorithm]
    breaches: list[Breach]
    products: list[Product]
    concepts: list[Concept]


@cache
def tables() -> Tables:
    """The curated cybersecurity table (loaded on first use)."""
    return Tables.model_validate(load_table("cybersecurity"))


@cache
def _cves() -> dict[str, Cve]:
    return {canon_text(c.id): c for c in tables().cves}


@cache
def _cwes() -> dict[str, Cwe]:
    return {canon_text(c.id): c for c in tables().cwes}


@cache
def _ports() -> dict[tuple[int, str], Port]:
    return {(p.port, p.protocol): p for p in tables().ports}


@cache
def _malware_rows() -> dict[str, Malware]:
    return {canon_text(m.name.removeprefix("the ")): m for m in tables().malware}


@cache
def _algorithms() -> dict[str, Algorithm]:
    return {canon_text(a.name): a for a in tables().algorithms}


@cache
def _breaches() -> dict[str, Breach]:
    return {canon_text(b.organization): b for b in tables().breaches}


@cache
def _products() -> dict[str, Product]:
    return {canon_text(p.name): p for p in tables().products}


def _cve(call: Call) -> Cve | None:
    return _cves().get(canon_text(str(call.args["cve_id"])))


def _cve_id(call: Call) -> str:
    return str(call.args["cve_id"]).strip().upper()


def _cve_year(call: Call) -> int:
    """The year part of the CVE id, kept inside the years CVEs have existed."""
    return min(max(int(_cve_id(call).split("-")[1]), 1999), 2025)


def _severity(score: float) -> str:
    if score >= 9.0:
        return "critical"
    if score >= 7.0:
        return "high"
    return "medium" if score >= 4.0 else "low"


def _version_traps(prior: str) -> list[str]:
    """Plausible other releases of the same product line: a later minor or patch release."""
    parts = [int(p) for p in re.findall(r"[0-9]+", prior)]
    major, minor, patch = [*parts, 0, 0][:3]
    out = [f"{major}.{minor + k}.{p}" for k in (2, 3, 4) for p in (0, 1, 3)]
    out += [f"{major}.{minor}.{patch + k}" for k in (4, 6, 9)]
    return out


PRODUCTS = ("OpenSSL", "Apache HTTP Server", "Linux kernel", "nginx", "Jenkins", "GitLab")
COUNTRIES = ("US", "CN", "DE", "KR", "BR", "IN")
COUNTRY_NAMES = {
    "US": ("United States",),
    "CN": ("China",),
    "DE": ("Germany",),
    "KR": ("South Korea",),
    "BR": ("Brazil",),
    "IN": ("India",),
}
CWE_FALLBACK = ("CWE-79", "CWE-89", "CWE-20", "CWE-787", "CWE-22", "CWE-416")
CVE_ID = string(
    "CVE identifier, e.g. CVE-2019-11510.", pattern="^[Cc][Vv][Ee]-[0-9]{4}-[0-9]{4,7}$"
)
DATE = string("ISO date, YYYY-MM-DD.", format="date")


# --------------------------------------------------------------------------- tools


def _cve_details(call: Call) -> dict[str, object]:
    d, row = call.draw, _cve(call)
    score = call.keyed(
        "cvss_v3_score", lambda: row.cvss if row else d.uniform("score", 3.1, 9.8, 1)
    )
    year = _cve_year(call)
    return {
        "cve_id": _cve_id(call),
        "name": row.name if row else None,
        "vendor": row.vendor if row else "multiple vendors",
        "product": row.product if row else d.choice("product", PRODUCTS),
        "cvss_v3_score": score,
        "severity": _severity(score),
        "attack_vector": d.choice("vector", ["network", "network", "local", "adjacent"]),
        "cwe_id": row.cwe if row else d.choice("cwe", CWE_FALLBACK),
        "published_date": row.published if row else d.day_in("published", year),
        "references_count": call.keyed("references_count", lambda: d.integer("references", 6, 180)),
    }


def _patch(call: Call) -> dict[str, object]:
    d, row = call.draw, _cve(call)
    year = _cve_year(call)
    published = date.fromisoformat(row.published if row else d.day_in("published", year))

    def fixed() -> str:
        if row and row.fixed_version:
            return row.fixed_version
        return f"{d.integer('major', 1, 9)}.{d.integer('minor', 0, 20)}.{d.integer('patch', 0, 15)}"

    version = call.keyed("fixed_version", fixed)
    return {
        "cve_id": _cve_id(call),
        "product": row.product if row else d.choice("product", PRODUCTS),
        "fixed_version": version,
        "affected_versions": f"all releases before {version}",
        "patch_release_date": (published + timedelta(days=d.integer("lag", 0, 20))).isoformat(),
        "advisory_id": f"ADV-{published.year}-{d.integer('advisory', 1000, 9999)}",
        "workaround_available": d.flag("workaround", 0.5),
        "unpatched_share_pct": call.keyed(
            "unpatched_share_pct", lambda: d.uniform("unpatched", 3, 45, 1)
        ),
        "as_of": BASE_DATE.isoformat(),
    }


def _kev_date(call: Call, row: Cve | None) -> str:
    """When CISA added the CVE to KEV: within weeks of publication for a known one."""
    d = call.draw
    if row is None:
        return d.day("kev", -1500, -30)
    added = date.fromisoformat(row.published) + timedelta(days=d.integer("kev", 3, 45))
    return min(added, BASE_DATE - timedelta(days=1)).isoformat()


def _exploit(call: Call) -> dict[str, object]:
    d, row = call.draw, _cve(call)
    epss = call.keyed(
        "epss_score",
        lambda: (
            min(0.999, float(d.near("epss", row.epss, 0.02, 3)))
            if row
            else d.uniform("epss", 0.001, 0.3, 3)
        ),
    )
    kev = row.in_kev if row else d.flag("kev", 0.1)
    public = epss >= 0.1
    exploits = call.keyed(
        "public_exploit_count", lambda: d.integer("exploits", 2, 60) if public else 0
    )
    return {
        "cve_id": _cve_id(call),
        "public_exploit": public or exploits > 0,
        "public_exploit_count": exploits,
        "exploit_attempts_24h": call.keyed(
            "exploit_attempts_24h",
            lambda: max(10, round(d.integer("attempts", 200, 20000) * max(epss, 0.05))),
        ),
        "exploit_maturity": "weaponized" if epss >= 0.5 else "proof of concept",
        "in_kev_catalog": kev,
        "kev_date_added": _kev_date(call, row) if kev else None,
        "epss_score": epss,
        "epss_percentile": round(min(0.999, 0.6 + 0.4 * epss**0.3), 3),
    }


def _cwe(call: Call) -> dict[str, object]:
    d = call.draw
    row = _cwes().get(canon_text(str(call.args["cwe_id"])))
    return {
        "cwe_id": str(call.args["cwe_id"]).strip().upper(),
        "name": row.name if row else None,
        "abstraction": d.choice("abstraction", ["base", "class", "variant"]),
        "top25_year": 2023,
        "top25_rank": call.keyed("top25_rank", lambda: row.rank if row else None),
        "related_cve_count": call.keyed(
            "related_cve_count", lambda: d.integer("related", 40, 9000)
        ),
        "likelihood_of_exploit": d.choice("likelihood", ["high", "medium", "low"]),
    }


def _port(call: Call) -> dict[str, object]:
    d = call.draw
    port, protocol = int(call.args["port"]), str(call.args["protocol"])
    row = _ports().get((port, protocol))

    def hosts() -> int:
        if row is None:
            return d.integer("hosts", 1000, 400000)
        places = len(str(row.exposed_hosts)) - 3
        return int(round(float(d.near("hosts", row.exposed_hosts, 0.08, 0)), -places))

    return {
        "port": port,
        "protocol": protocol,
        "service": row.service if row else "unassigned",
        "exposed_hosts": call.keyed("exposed_hosts", hosts),
        "top_country": call.keyed("top_country", lambda: d.choice("country", COUNTRIES)),
        "vulnerable_share_pct": call.keyed(
            "vulnerable_share_pct", lambda: d.uniform("vulnerable", 2, 40, 1)
        ),
        "change_30d_pct": d.uniform("change", -6, 6, 1),
    }


def _malware(call: Call) -> dict[str, object]:
    d = call.draw
    known = _malware_rows().get(canon_text(str(call.args["family"]).removeprefix("the ")))
    active = d.flag("active", 0.3)
    samples = call.keyed(
        "samples_last_30d",
        lambda: d.integer("samples", 200, 6000) if active else d.integer("samples", 1, 40),
    )
    return {
        "family": known.name if known else str(call.args["family"]).strip(),
        "type": known.type if known else d.choice("type", ["trojan", "worm", "ransomware"]),
        "first_seen_year": known.first_seen if known else d.integer("seen", 2005, 2024),
        "estimated_infections": call.keyed(
            "estimated_infections",
            lambda: known.infections if known else d.integer("infections", 1, 900) * 1000,
        ),
        "primary_vector": d.choice("vector", ["email", "network exploit", "drive-by download"]),
        # a burst of fresh samples means the family is active again
        "still_active": active or samples >= 100,
        "known_variants": call.keyed("known_variants", lambda: d.integer("variants", 3, 240)),
        "samples_last_30d": samples,
        "detection_rate_pct": call.keyed(
            "detection_rate_pct", lambda: d.uniform("detection", 40, 95, 1)
        ),
    }


def _crypto(call: Call) -> dict[str, object]:
    d = call.draw
    known = _algorithms().get(canon_text(str(call.args["algorithm"])))
    bits = call.keyed(
        "security_bits",
        lambda: known.security_bits if known else d.choice("bits", [80, 112, 128, 192]),
    )
    family = known.family if known else d.choice("family", ["symmetric cipher", "public-key"])
    if bits < 112:
        status, until = "disallowed", d.integer("until", 2010, 2018)
    elif bits < 128:
        status, until = "acceptable until 2030", 2030
    else:
        status, until = "acceptable", d.choice("until", [2031, 2035, 2040])
    return {
        "algorithm": known.name if known else str(call.args["algorithm"]).strip(),
        "family": family,
        "key_size_bits": known.key_bits if known else d.choice("key", [128, 256, 2048]),
        "security_bits": bits,
        "quantum_security_bits": 0 if family == "public-key" else bits // 2,
        "nist_status": status,
        "recommended_until": until,
        "servers_offering_pct": call.keyed(
            "servers_offering_pct", lambda: d.uniform("offering", 0.5, 95, 1)
        ),
        "as_of": BASE_DATE.isoformat(),
    }


def _breach(call: Call) -> dict[str, object]:
    d = call.draw
    known = _breaches().get(canon_text(str(call.args["organization"])))
    year = known.year if known else d.integer("year", 2008, 2024)
    return {
        "organization": known.organization if known else str(call.args["organization"]).strip(),
        "breach_year": year,
        "records_exposed_millions": call.keyed(
            "records_exposed_millions",
            lambda: known.records_m if known else d.uniform("records", 0.2, 60, 1),
        ),
        "data_types": d.sample("types", ["names", "emails", "passwords", "SSNs", "card data"], 3),
        "disclosure_date": d.day_in("disclosed", year + d.integer("delay", 0, 1)),
        "regulatory_fine_usd_millions": d.uniform("fine", 0.5, 700, 1),
        "attack_vector": d.choice("vector", ["stolen credentials", "unpatched server", "insider"]),
    }


def _vulnerability_stats(call: Call) -> dict[str, object]:
    d = call.draw
    known = _products().get(canon_text(str(call.args["product"])))
    year = int(call.args["year"])

    def count() -> int:
        if known is None:
            return d.integer("count", 3, 300)
        if year == 2023:
            return known.cves_2023
        # the current year counts only what has been published so far
        share = BASE_DATE.timetuple().tm_yday / 365 if year == BASE_DATE.year else 1.0
        return max(
            1,
            round(
                known.cves_2023
                * 1.08 ** (year - 2023)
                * share
                * float(d.uniform("n", 0.85, 1.15, 3))
            ),
        )

    total = call.keyed("cve_count", count)
    return {
        "product": known.name if known else str(call.args["product"]).strip(),
        "year": year,
        "cve_count": total,
        "critical_count": call.keyed(
            "critical_count",
            lambda: max(1, round(total * float(d.uniform("critical", 0.05, 0.2, 3)))),
        ),
        "high_count": max(1, round(total * float(d.uniform("high", 0.25, 0.45, 3)))),
        "mean_cvss": d.uniform("mean", 5.2, 7.9, 1),
        "most_common_cwe": d.choice("cwe", CWE_FALLBACK),
    }


TOOLS: tuple[ToolDef, ...] = (
    declare(
        "get_cve_details",
        "Catalogue entry of a published vulnerability: affected product, weakness type, "
        "publication date and its CVSS v3 base score with the matching severity band.",
        {"cve_id": CVE_ID},
        {
            "cve_id": string("The identifier, upper case."),
            "name": nullable(string("Common nickname, null when none.")),
            "vendor": string("Vendor."),
            "product": string("Affected product."),
            "cvss_v3_score": number("CVSS v3 base score."),
            "severity": string("Severity band of the score."),
            "attack_vector": string("CVSS attack vector."),
            "cwe_id": string("Underlying weakness."),
            "published_date": DATE,
            "references_count": integer("External references listed."),
        },
        _cve_details,
    ),
    declare(
        "get_patch_info",
        "Vendor fix for a vulnerability: the first fixed release, affected releases, "
        "advisory and patch date.",
        {"cve_id": CVE_ID},
        {
            "cve_id": string("The identifier, upper case."),
            "product": string("Affected product."),
            "fixed_version": string("First release that contains the fix."),
            "affected_versions": string("Releases that are vulnerable."),
            "patch_release_date": DATE,
            "advisory_id": string("Vendor advisory identifier."),
            "workaround_available": boolean("Whether a mitigation exists without patching."),
            "unpatched_share_pct": number(
                "Share of internet-facing instances in this week's scan still unpatched, percent."
            ),
            "as_of": DATE,
        },
        _patch,
    ),
    declare(
        "get_exploit_status",
        "Exploitation intelligence for a vulnerability: public exploit code, listing in the "
        "CISA known-exploited catalogue, and the EPSS probability of exploitation.",
        {"cve_id": CVE_ID},
        {
            "cve_id": string("The identifier, upper case."),
            "public_exploit": boolean("Whether exploit code is public."),
            "exploit_maturity": string("How mature known exploits are."),
            "in_kev_catalog": boolean("Whether CISA lists it as exploited in the wild."),
            "kev_date_added": nullable(DATE),
            "epss_score": number("EPSS probability of exploitation in the next 30 days."),
            "epss_percentile": number("Percentile of the EPSS score among all CVEs."),
            "public_exploit_count": integer("Public exploit and proof-of-concept releases known."),
            "exploit_attempts_24h": integer(
                "Exploitation attempts sensor networks saw over the last 24 hours."
            ),
        },
        _exploit,
    ),
    declare(
        "lookup_cwe",
        "Entry of a weakness in the MITRE CWE list with its place in the yearly Top 25 of "
        "most dangerous weaknesses.",
        {"cwe_id": string("CWE identifier, e.g. CWE-352.", pattern="^[Cc][Ww][Ee]-[0-9]{1,4}$")},
        {
            "cwe_id": string("The identifier, upper case."),
            "name": nullable(string("Weakness name, null when unknown.")),
            "abstraction": string("Abstraction level."),
            "top25_year": integer("Edition of the Top 25 list used."),
            "top25_rank": nullable(integer("Rank in that edition, null when not listed.")),
            "related_cve_count": integer("CVEs mapped to the weakness."),
            "likelihood_of_exploit": string("Likelihood of exploit."),
        },
        _cwe,
    ),
    declare(
        "get_port_exposure",
        "Internet-wide scan results for a service port: how many hosts expose it and how "
        "many of them run vulnerable software.",
        {
            "port": integer("Port number.", minimum=1, maximum=65535),
            "protocol": choice(("tcp", "udp"), "Transport protocol.", default="tcp"),
        },
        {
            "port": integer("Port."),
            "protocol": string("Protocol."),
            "service": string("Service usually found on the port."),
            "exposed_hosts": integer("Hosts reachable on the port in the latest scan."),
            "top_country": string("Country with the most exposed hosts."),
            "vulnerable_share_pct": number("Share of exposed hosts with known vulnerabilities."),
            "change_30d_pct": number("Change in exposed hosts over the last 30 days, percent."),
        },
        _port,
        optional=("protocol",),
    ),
    declare(
        "get_malware_profile",
        "Threat-intelligence profile of a malware family: type, first sighting, spread and "
        "known variants.",
        {"family": string("Malware family name, e.g. Zeus.", minLength=2)},
        {
            "family": string("Family name."),
            "type": string("Kind of malware."),
            "first_seen_year": integer("Year first observed."),
            "estimated_infections": integer("Estimated number of infected machines."),
            "primary_vector": string("Main way it spread."),
            "still_active": boolean("Whether it is still seen in the wild."),
            "known_variants": integer("Known variants."),
            "samples_last_30d": integer("New samples submitted to malware repositories, 30 days."),
            "detection_rate_pct": number(
                "Share of antivirus engines detecting the newest sample, percent."
            ),
        },
        _malware,
    ),
    declare(
        "get_crypto_strength",
        "Security strength of a cryptographic algorithm or key size against classical and "
        "quantum attackers, with its NIST status.",
        {"algorithm": string("Algorithm and key size, e.g. ECDSA P-384.", minLength=2)},
        {
            "algorithm": string("Algorithm."),
            "family": string("Kind of primitive."),
            "key_size_bits": integer("Key or output size in bits."),
            "security_bits": integer("Classical security strength in bits."),
            "quantum_security_bits": integer("Security strength against a quantum attacker."),
            "nist_status": string("NIST status."),
            "recommended_until": integer("Last year NIST guidance recommends it."),
            "servers_offering_pct": number(
                "Share of public servers in this week's scan that still offer it, percent."
            ),
            "as_of": DATE,
        },
        _crypto,
    ),
    declare(
        "get_breach_record",
        "Record of a publicly disclosed data breach at an organisation: size, data exposed, "
        "disclosure and penalties.",
        {"organization": string("Organisation name, e.g. Heartland Payment Systems.", minLength=2)},
        {
            "organization": string("Organisation."),
            "breach_year": integer("Year the breach happened."),
            "records_exposed_millions": number("Records exposed, in millions."),
            "data_types": array(string("A kind of data."), "Kinds of data exposed."),
            "disclosure_date": DATE,
            "regulatory_fine_usd_millions": number(
                "Regulatory fines and settlements, USD millions."
            ),
            "attack_vector": string("How the attackers got in."),
        },
        _breach,
    ),
    declare(
        "get_vulnerability_stats",
        "Yearly count of CVEs published for a product, by severity.",
        {
            "product": string("Product name, e.g. Jenkins.", minLength=2),
            "year": integer("Publication year.", minimum=1999, maximum=2025),
        },
        {
            "product": string("Product."),
            "year": integer("Year."),
            "cve_count": integer("CVEs published that year."),
            "critical_count": integer("Critical ones among them."),
            "high_count": integer("High-severity ones among them."),
            "mean_cvss": number("Mean CVSS v3 base score."),
            "most_common_cwe": string("Most frequent weakness."),
        },
        _vulnerability_stats,
    ),
)

# --------------------------------------------------------------------------- questions


def _cve_subject(c: Cve) -> str:
    return f"{c.id} ({c.name})"


def _score_targets() -> list[Target]:
    return [Target(c.id, _cve_subject(c), {"cve_id": c.id}, c.cvss) for c in tables().cves]


def _patch_targets() -> list[Target]:
    return [
        Target(c.id, _cve_subject(c), {"cve_id": c.id}, c.fixed_version, {"product": c.product})
        for c in tables().cves
        if c.fixed_version
    ]


def _epss_targets() -> list[Target]:
    return [Target(c.id, _cve_subject(c), {"cve_id": c.id}, c.epss) for c in tables().cves]


def _rank_targets() -> list[Target]:
    return [Target(c.id, f"{c.id} ({c.name})", {"cwe_id": c.id}, c.rank) for c in tables().cwes]


def _sig3(value: int) -> int:
    """Decimals that keep three significant digits of an integer."""
    return -(len(str(value)) - 3)


def _port_targets() -> list[Target]:
    return [
        Target(
            f"{p.protocol.upper()} port {p.port} ({p.service})",
            f"{p.protocol.upper()} port {p.port} ({p.service})",
            {"port": p.port, "protocol": p.protocol},
            p.exposed_hosts,
            digits=_sig3(p.exposed_hosts),
        )
        for p in tables().ports
    ]


def _malware_targets() -> list[Target]:
    return [
        Target(
            m.name.removeprefix("the "),
            m.name,
            {"family": m.name.removeprefix("the ")},
            m.infections,
            digits=_sig3(m.infections),
        )
        for m in tables().malware
    ]


def _share_targets() -> list[Target]:
    return [
        Target(
            f"{p.protocol.upper()} port {p.port} ({p.service})",
            f"{p.service} (port {p.port})",
            {"port": p.port, "protocol": p.protocol},
            None,
        )
        for p in tables().ports
    ]


def _related_targets() -> list[Target]:
    return [Target(c.id, f"{c.id} ({c.name})", {"cwe_id": c.id}, None) for c in tables().cwes]


def _reference_targets() -> list[Target]:
    return [Target(c.id, _cve_subject(c), {"cve_id": c.id}, None) for c in tables().cves]


def _variant_targets() -> list[Target]:
    return [
        Target(m.name.removeprefix("the "), m.name, {"family": m.name.removeprefix("the ")}, None)
        for m in tables().malware
    ]


def _crypto_targets() -> list[Target]:
    return [
        Target(a.name, a.name, {"algorithm": a.name}, a.security_bits) for a in tables().algorithms
    ]


def _breach_targets() -> list[Target]:
    return [
        Target(
            b.organization,
            b.organization,
            {"organization": b.organization},
            b.records_m,
            {"year": str(b.year)},
            digits=0 if b.records_m >= 1000 else 1,
        )
        for b in tables().breaches
    ]


def _stats_targets() -> list[Target]:
    return [
        Target(p.name, p.name, {"product": p.name, "year": 2023}, p.cves_2023, {"year": "2023"})
        for p in tables().products
    ]


def _current_stats_targets() -> list[Target]:
    year = BASE_DATE.year
    return [
        Target(p.name, p.name, {"product": p.name, "year": year}, None, {"year": str(year)})
        for p in tables().products
    ]


QUESTIONS: tuple[Question, ...] = (
    Question(
        "cvss-score",
        "get_cve_details",
        "cvss_v3_score",
        "stable",
        _score_targets,
        NumberTrap(digits=1, high=10.0),
        ("the CVSS v3 base score of {subject}", "the CVSS v3 base score assigned to {subject}"),
        ("the CVSS v3 base score, severity rating and number of listed references of {subject}",),
        fields=("severity", "references_count"),
        beyond=(
            ("scanner_detections_30d", "how many scanner detections it had in the last 30 days"),
            ("affected_devices", "how many devices are still affected"),
            ("mean_days_to_patch", "the mean time organisations took to patch it"),
        ),
    ),
    Question(
        "fixed-version",
        "get_patch_info",
        "fixed_version",
        "stable",
        _patch_targets,
        LabelTrap(_version_traps),
        (
            "the first {product} release that fixes {subject}",
            "the {product} version that contains the fix for {subject}",
        ),
        (
            "the first fixed {product} release for {subject}, the vendor advisory number and "
            "the date the patch came out",
        ),
        fields=("advisory_id", "patch_release_date"),
        unit="version {v}",
        anchor="{u}",
    ),
    Question(
        "epss-score",
        "get_exploit_status",
        "epss_score",
        "volatile",
        _epss_targets,
        NumberTrap(digits=3, high=0.999),
        (
            "the current EPSS score of {subject}",
            "the EPSS exploitation-probability score of {subject}",
        ),
        ("the EPSS score and percentile of {subject} and whether public exploit code exists",),
        fields=("epss_percentile",),
        beyond=(
            ("epss_30d_change", "how the EPSS score moved over the last thirty days"),
            ("exploiting_groups", "which threat groups are exploiting it"),
            ("first_exploitation_date", "when exploitation was first observed"),
        ),
    ),
    Question(
        "top25-rank",
        "lookup_cwe",
        "top25_rank",
        "stable",
        _rank_targets,
        NumberTrap(digits=0, high=25, min_step=3),
        (
            "the rank of {subject} in the 2023 CWE Top 25",
            "the position of {subject} in the 2023 edition of the CWE Top 25",
        ),
        ("the name, the 2023 Top 25 rank and the number of related CVEs of {subject}",),
        fields=("related_cve_count",),
        anchor="number {u}",
    ),
    Question(
        "exposed-hosts",
        "get_port_exposure",
        "exposed_hosts",
        "volatile",
        _port_targets,
        NumberTrap(digits=0),
        (
            "the number of internet-facing hosts currently exposing {subject}",
            "the count of hosts on the internet with {subject} open",
        ),
        (
            "the number of internet-exposed hosts with {subject} open, the share of them running "
            "vulnerable software and the country with the most of them",
        ),
        fields=("vulnerable_share_pct",),
        unit="{v} hosts",
        million_alias=True,
        beyond=(
            ("top_hosting_providers", "the hosting providers with the most exposed hosts"),
            ("hosts_year_ago", "how many hosts were exposed a year ago"),
            ("honeypot_hits_7d", "honeypot hits against it in the last week"),
        ),
    ),
    Question(
        "malware-infections",
        "get_malware_profile",
        "estimated_infections",
        "stable",
        _malware_targets,
        NumberTrap(digits=0),
        (
            "the estimated number of computers infected by {subject}",
            "the estimated infection count of {subject}",
        ),
        (
            "the type of {subject}, the year it was first seen, its estimated number of "
            "infections and how many variants are known",
        ),
        fields=("known_variants",),
        unit="{v} machines",
        million_alias=True,
    ),
    Question(
        "security-bits",
        "get_crypto_strength",
        "security_bits",
        "stable",
        _crypto_targets,
        NumberTrap(digits=0, high=512, min_step=8),
        (
            "the effective security strength in bits of {subject}",
            "the classical security level, in bits, that {subject} provides",
        ),
        (
            "the security strength in bits of {subject}, its NIST status and the last year NIST "
            "recommends it",
        ),
        fields=("recommended_until",),
        unit="{v} bits",
    ),
    Question(
        "breach-records",
        "get_breach_record",
        "records_exposed_millions",
        "stable",
        _breach_targets,
        NumberTrap(digits=1),
        (
            "the number of records exposed in the {year} {subject} data breach",
            "the count of records exposed in the {year} {subject} breach",
        ),
        (
            "the number of records exposed in the {year} {subject} breach, the regulatory fines "
            "that followed and the date it was disclosed",
        ),
        fields=("regulatory_fine_usd_millions", "disclosure_date"),
        unit="{v} million records",
        beyond=(
            ("ransom_paid_usd", "how much ransom was paid"),
            ("notification_cost_usd", "what notifying the victims cost"),
            ("dark_web_price_usd", "the price the data sold for on the dark web"),
        ),
    ),
    Question(
        "yearly-cves",
        "get_vulnerability_stats",
        "cve_count",
        "stable",
        _stats_targets,
        NumberTrap(digits=0, min_step=3),
        (
            "the number of CVEs published for {subject} in {year}",
            "the count of new CVEs assigned to {subject} in {year}",
        ),
        (
            "the number of CVEs published for {subject} in {year}, how many were rated critical "
            "and their mean CVSS score",
        ),
        fields=("critical_count", "mean_cvss"),
        unit="{v} CVEs",
    ),
    Question(
        "vulnerable-share",
        "get_port_exposure",
        "vulnerable_share_pct",
        "volatile",
        _share_targets,
        NumberTrap(digits=1, high=95, min_step=3),
        (
            "the share of internet-exposed hosts on {subject} that run vulnerable software",
            "the percentage of exposed {subject} hosts running vulnerable versions",
        ),
        (
            "the vulnerable share of internet-exposed {subject} hosts, the number of exposed "
            "hosts and the thirty-day change in exposure",
        ),
        fields=("exposed_hosts", "change_30d_pct"),
        unit="{v}%",
        beyond=(
            ("top_vulnerable_version", "the most common vulnerable software version"),
            ("patched_share_change", "how the patched share changed since last quarter"),
            ("exploited_hosts", "how many of the hosts show signs of compromise"),
        ),
    ),
    Question(
        "related-cves",
        "lookup_cwe",
        "related_cve_count",
        "volatile",
        _related_targets,
        NumberTrap(digits=0, min_step=20),
        (
            "the number of CVEs currently mapped to {subject}",
            "the count of CVEs linked to {subject} today",
        ),
        ("the number of CVEs mapped to {subject} and its rank in the 2023 CWE Top 25",),
        fields=("top25_rank",),
        unit="{v} CVEs",
        beyond=(
            ("cves_last_12m", "how many of them were published in the last twelve months"),
            ("kev_mapped_count", "how many of them are in the KEV catalog"),
            ("top_affected_vendor", "the vendor with the most of them"),
        ),
    ),
    Question(
        "cve-references",
        "get_cve_details",
        "references_count",
        "volatile",
        _reference_targets,
        NumberTrap(digits=0, min_step=5),
        (
            "the number of references currently listed for {subject}",
            "the count of references the record of {subject} lists",
        ),
        (
            "the number of references listed for {subject}, its CVSS v3 base score and its "
            "attack vector",
        ),
        fields=("cvss_v3_score", "attack_vector"),
        unit="{v} references",
        beyond=(
            ("exploit_db_ids", "the Exploit-DB identifiers for it"),
            ("vendor_advisory_url", "the URL of the vendor advisory"),
            ("last_reference_added", "the date the latest reference was added"),
        ),
    ),
    Question(
        "malware-variants",
        "get_malware_profile",
        "known_variants",
        "volatile",
        _variant_targets,
        NumberTrap(digits=0, min_step=5),
        (
            "the number of known variants of {subject}",
            "the count of catalogued variants of {subject}",
        ),
        ("the number of known variants of {subject}, its type and the year it was first seen",),
        fields=("type", "first_seen_year"),
        unit="{v} variants",
        beyond=(
            ("newest_variant_name", "the name of the newest variant"),
            ("active_c2_servers", "how many command-and-control servers are active"),
            ("variants_last_year", "how many variants appeared in the last year"),
        ),
    ),
    Question(
        "exploit-count",
        "get_exploit_status",
        "public_exploit_count",
        "volatile",
        lambda: [replace(t, prior=None) for t in _epss_targets() if float(t.prior or 0) >= 0.12],
        NumberTrap(digits=0, min_step=3),
        (
            "the number of public exploits released so far for {subject}",
            "the count of public exploit and proof-of-concept releases for {subject} to date",
        ),
        ("the number of public exploits for {subject}, with its EPSS score and EPSS percentile",),
        fields=("epss_score", "epss_percentile"),
        unit="{v} exploits",
        beyond=(
            ("exploit_authors", "who published the exploits"),
            ("metasploit_module", "the name of the Metasploit module"),
            ("first_exploit_date", "when the first exploit appeared"),
        ),
    ),
    Question(
        "exploit-attempts",
        "get_exploit_status",
        "exploit_attempts_24h",
        "volatile",
        lambda: [replace(t, prior=None) for t in _epss_targets()],
        NumberTrap(digits=0, min_step=10),
        (
            "the number of exploitation attempts against {subject} seen over the last day",
            "the count of exploitation attempts sensor networks logged for {subject} in the past "
            "day",
        ),
        (
            "the exploitation attempts against {subject} seen over the last day, with its EPSS "
            "score and EPSS percentile",
        ),
        fields=("epss_score", "epss_percentile"),
        unit="{v} attempts",
        beyond=(
            ("attacking_asns", "the networks the attempts came from"),
            ("targeted_sectors", "the sectors most targeted"),
            ("attempts_week_ago", "the daily count a week ago"),
        ),
    ),
    Question(
        "unpatched-share",
        "get_patch_info",
        "unpatched_share_pct",
        "volatile",
        lambda: [replace(t, prior=None) for t in _score_targets()],
        NumberTrap(digits=1, high=100, min_step=3),
        (
            "the share of internet-facing instances still unpatched against {subject}",
            "the percentage of exposed systems still unpatched for {subject} this week",
        ),
        (
            "the share of internet-facing instances still unpatched against {subject}, with the "
            "fixed version and the scan date",
        ),
        fields=("fixed_version", "as_of"),
        unit="{v}%",
        beyond=(
            ("unpatched_by_country", "the unpatched share in each country"),
            ("unpatched_trend", "how the share moved over the last quarter"),
            ("largest_unpatched_operators", "the largest operators still unpatched"),
        ),
    ),
    Question(
        "malware-samples",
        "get_malware_profile",
        "samples_last_30d",
        "volatile",
        _variant_targets,
        NumberTrap(digits=0, min_step=3),
        (
            "the number of new {subject} samples submitted to malware repositories in the past "
            "thirty days",
            "the count of fresh {subject} samples analysts collected over the last thirty days",
        ),
        (
            "the number of new {subject} samples of the past thirty days, with the family's count "
            "of known variants and the antivirus detection rate of the newest sample",
        ),
        fields=("known_variants", "detection_rate_pct"),
        unit="{v} samples",
        beyond=(
            ("sample_hashes", "the hashes of the newest samples"),
            ("targeted_countries", "the countries the samples target"),
            ("packer_used", "the packer the samples use"),
        ),
    ),
    Question(
        "detection-rate",
        "get_malware_profile",
        "detection_rate_pct",
        "volatile",
        _variant_targets,
        NumberTrap(digits=1, high=100, min_step=8),
        (
            "the share of antivirus engines that detect the newest {subject} sample",
            "the percentage of antivirus engines currently flagging the latest {subject} sample",
        ),
        (
            "the antivirus detection rate of the newest {subject} sample, with the family's "
            "count of known variants and of samples from the past thirty days",
        ),
        fields=("known_variants", "samples_last_30d"),
        unit="{v}%",
        beyond=(
            ("undetecting_engines", "which engines miss it"),
            ("detection_names", "the detection names vendors use"),
            ("evasion_technique", "the evasion technique it relies on"),
        ),
    ),
    Question(
        "cves-this-year",
        "get_vulnerability_stats",
        "cve_count",
        "volatile",
        _current_stats_targets,
        NumberTrap(digits=0, min_step=5),
        (
            "the number of CVEs published so far in {year} for {subject}",
            "the count of CVEs {subject} has had so far this year ({year})",
        ),
        (
            "the number of CVEs published so far in {year} for {subject}, with how many are "
            "critical and how many high",
        ),
        fields=("critical_count", "high_count"),
        unit="{v} CVEs",
        beyond=(
            ("cves_exploited_ytd", "how many of them are exploited"),
            ("median_patch_days", "the median days to a patch"),
            ("top_reporter", "who reported the most of them"),
        ),
    ),
    Question(
        "critical-cves-this-year",
        "get_vulnerability_stats",
        "critical_count",
        "volatile",
        _current_stats_targets,
        NumberTrap(digits=0, min_step=3),
        (
            "the number of critical-severity CVEs published so far in {year} for {subject}",
            "the count of critical CVEs {subject} has had so far this year ({year})",
        ),
        (
            "the number of critical CVEs published so far in {year} for {subject}, with the "
            "total CVE count and the mean CVSS score",
        ),
        fields=("cve_count", "mean_cvss"),
        unit="{v} critical CVEs",
        beyond=(
            ("critical_cve_ids", "the identifiers of the critical CVEs"),
            ("critical_exploited", "how many of them are exploited"),
            ("critical_year_ago", "the count at the same point last year"),
        ),
    ),
    Question(
        "top-exposure-country",
        "get_port_exposure",
        "top_country",
        "volatile",
        _share_targets,
        LabelTrap(lambda prior: COUNTRIES, lambda code: list(COUNTRY_NAMES.get(code, ()))),
        (
            "the country with the most hosts exposing {subject} today",
            "the country currently hosting the largest number of exposed {subject} services",
        ),
        (
            "the country with the most hosts exposing {subject}, with the number of exposed hosts "
            "and the share running a vulnerable version",
        ),
        fields=("exposed_hosts", "vulnerable_share_pct"),
        beyond=(
            ("country_host_counts", "the host count in each of the top five countries"),
            ("top_hosting_asn", "the network that hosts the most of them"),
            ("country_share_change", "how the leading country's share changed this year"),
        ),
    ),
    Question(
        "servers-offering",
        "get_crypto_strength",
        "servers_offering_pct",
        "volatile",
        lambda: [replace(t, prior=None) for t in _crypto_targets()],
        NumberTrap(digits=1, high=100, min_step=3),
        (
            "the share of public servers that still offer {subject}",
            "the percentage of public servers currently supporting {subject}",
        ),
        (
            "the share of public servers still offering {subject}, with the scan date and its "
            "NIST status",
        ),
        fields=("as_of", "nist_status"),
        unit="{v}%",
        beyond=(
            ("offering_by_sector", "the share in each sector"),
            ("preferred_share", "the share that prefer it over alternatives"),
            ("offering_year_ago", "the share a year ago"),
        ),
    ),
)

# --------------------------------------------------------------------------- controls


def _hosts(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    prefix = rng.randint(20, 30)
    return {"prefix": str(prefix)}, [str(2 ** (32 - prefix) - 2)]


def _key_bytes(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    bits = rng.choice([128, 192, 256, 384, 512, 1024, 2048, 3072, 4096])
    return {"bits": str(bits)}, [str(bits // 8)]


def _entropy(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    length, symbols = rng.randint(6, 24), rng.choice([2, 4, 8, 16, 32, 64])
    return {"length": str(length), "symbols": str(symbols)}, [str(length * int(math.log2(symbols)))]


def _sweep(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    rate, seconds = rng.choice([2, 4, 5, 8, 10, 20, 25, 50]), rng.randint(10, 5000)
    return {"rate": str(rate), "space": f"{rate * seconds:,}"}, [str(seconds)]


def _downtime(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    uptime = rng.choice([99.0, 99.5, 99.9, 99.95, 99.99])
    days = rng.choice([30, 365])
    minutes = (100 - uptime) / 100 * days * 24 * 60
    return {"uptime": figure(uptime), "days": str(days)}, [figure(round(minutes, 2))]


CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "subnet-hosts",
        {
            "formal": ("How many usable host addresses does an IPv4 /{prefix} subnet provide?",),
            "casual": ("how many usable hosts fit in an IPv4 /{prefix} network?",),
            "terse": ("Usable hosts in an IPv4 /{prefix}?",),
        },
        _hosts,
    ),
    Calculation(
        "key-bytes",
        {
            "formal": ("How many bytes long is a {bits}-bit key?",),
            "casual": ("a {bits}-bit key is how many bytes?",),
            "terse": ("{bits}-bit key in bytes?",),
        },
        _key_bytes,
    ),
    Calculation(
        "password-entropy",
        {
            "formal": (
                "A password of {length} characters is drawn uniformly at random from an "
                "alphabet of {symbols} symbols. How many bits of entropy does it have?",
            ),
            "casual": (
                "random password, {length} characters, {symbols}-symbol alphabet — how many "
                "bits of entropy?",
            ),
            "terse": ("{length} random chars from {symbols} symbols. Entropy in bits?",),
        },
        _entropy,
    ),
    Calculation(
        "keyspace-sweep",
        {
            "formal": (
                "A cracking rig tests {rate} million keys per second. How many seconds does it "
                "need to try a keyspace of {space} million keys?",
            ),
            "casual": (
                "{rate} million guesses a second against {space} million keys — how many seconds "
                "to go through them all?",
            ),
            "terse": ("{space} million keys at {rate} million/s. Seconds?",),
        },
        _sweep,
    ),
    Calculation(
        "allowed-downtime",
        {
            "formal": (
                "A service promises {uptime}% availability over a {days}-day period. How many "
                "minutes of downtime does that allow?",
            ),
            "casual": ("{uptime}% uptime over {days} days — how many minutes down is allowed?",),
            "terse": ("{uptime}% over {days} days. Downtime minutes?",),
        },
        _downtime,
    ),
)

SYSTEM_PROMPT = (
    "You are a threat-intelligence analyst supporting a security operations team. Your "
    "tools query the team's intelligence platform: vulnerability records, vendor patches, "
    "exploitation data, weakness classifications, internet exposure scans, malware "
    "profiles, cryptographic strength guidance, breach records and yearly vulnerability "
    "statistics. When a question asks for a specific value about a named vulnerability, "
    "weakness, port, malware family, algorithm, organisation or product, query the matching "
    "tool and answer from its result, even if it differs from what you remember; the "
    "platform is the team's source of truth. Do not report values the tools did not return; "
    "if one is missing, say so. General security concepts, terminology and arithmetic on "
    "numbers the user gives need no tool: answer those directly. Be brief and precise."
)

KIT: DomainKit = assemble(
    "cybersecurity",
    SYSTEM_PROMPT,
    TOOLS,
    QUESTIONS,
    lambda: tables().concepts,
    CALCULATIONS,
    tool_answer_template=(
        "Report the values exactly as the platform returned them, with units, in one or two "
        "sentences."
    ),
    direct_answer_template="Answer directly in two or three sentences, without calling a tool.",
)
