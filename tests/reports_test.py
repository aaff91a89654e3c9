"""verify --json/--junit/--html produce valid files for a passing and a failing run (and so
does compare: every command that writes reports takes every format), the HTML loads in
headless Chromium and its screenshot is not blank, and regen --markdown
summarises a change and every series' tolerance. The goldens are regenerated here first,
so the test holds on any machine. CHECK_HTML, where given, is the HTML report of a check
that caught a resume mistake (CheckTest writes it): it too loads in Chromium, not blank,
headed as check's, with its runs plotted.
usage: reports_test.py TRAINPROOF_BIN [CHECK_HTML]"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser

import h5py

binary = sys.argv[1]
passed = 0


def check(cond, what):
    global passed
    if not cond:
        print(f"FAIL: {what}\n{passed} passed, 1 failed")
        sys.exit(1)
    passed += 1


def verify(gdir, out, tag):
    return subprocess.run([binary, "verify", "underflow", "resume_exact", "--device", "cpu", "--golden", str(gdir),
                           "--json", str(out / f"{tag}.json"), "--junit", str(out / f"{tag}.xml"),
                           "--html", str(out / f"{tag}.html")], capture_output=True, text=True).returncode


def png_is_not_blank(path):
    """Decodes the PNG's image data and counts distinct scanlines (no imaging library needed)."""
    data = pathlib.Path(path).read_bytes()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "screenshot is a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width = int.from_bytes(body[:4], "big")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + width * 4 if len(raw) % (1 + width * 4) == 0 else 1 + width * 3
    rows = {raw[i + 1:i + stride] for i in range(0, len(raw), stride)}
    return len(rows) > 20


class Counter(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1


with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    good, bad = tmp / "good", tmp / "bad"
    subprocess.run([binary, "regen", "underflow", "resume_exact", "--device", "cpu", "--path-set", "native",
                    "--golden", str(good)], check=True, capture_output=True)
    shutil.copytree(good, bad)
    with h5py.File(bad / "resume_exact.h5", "r+") as f:
        f["cpu/params_uninterrupted"][17:40] += 1e-2
    check(verify(good, tmp, "pass") == 0, "verify passes on the goldens")
    check(verify(bad, tmp, "fail") == 1, "verify fails on the edited golden")
    for tag, failures in (("pass", 0), ("fail", 1)):
        j = json.loads((tmp / f"{tag}.json").read_text())
        check(j["failed"] == failures, f"{tag}.json counts {failures} failure(s)")
        suite = ET.parse(tmp / f"{tag}.xml").getroot().find("testsuite")
        check(int(suite.get("failures")) == failures, f"{tag}.xml counts {failures} failure(s)")
        check(int(suite.get("tests")) == len(suite.findall("testcase")), f"{tag}.xml tests attribute")
        c = Counter()
        c.feed((tmp / f"{tag}.html").read_text())
        check(c.tags.get("svg", 0) >= 10 and c.tags.get("table", 0) == 1, f"{tag}.html has plots and a table")
    failure = [t for t in ET.parse(tmp / "fail.xml").getroot().iter("testcase") if t.find("failure") is not None]
    check(failure[0].get("name") == "params_uninterrupted" and "[17]" in failure[0].find("failure").get("message"),
          "the JUnit failure names the series and the first divergence")

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    check(chromium is not None, "chromium is installed (tools/bootstrap.sh installs it)")

    def render(page, tag):
        """The page's screenshot (not blank) and its DOM, as headless Chromium loads it."""
        shot = tmp / f"{tag}.png"
        r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={tmp / (tag + '-profile')}", "--window-size=1200,1600",
                            f"--screenshot={shot}", page.as_uri()], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0 and shot.exists(), f"chromium rendered {page.name}: {r.stderr[-500:]}")
        check(png_is_not_blank(shot), f"the screenshot of {page.name} is not blank")
        return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               "--disable-background-networking", f"--user-data-dir={tmp / (tag + '-profile2')}",
                               "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout

    dom = render(tmp / "fail.html", "fail")
    check("trainproof verify: FAILED" in dom and "params_uninterrupted" in dom, "the page loads with its content")
    if len(sys.argv) > 2:
        page = pathlib.Path(sys.argv[2])
        check(page.exists(), f"{page}: check's HTML report (CheckProbeTest.group-rng-optimizer writes it)")
        dom = render(page, "check")
        check("trainproof check: FAILED" in dom and "<h2>Runs</h2>" in dom and "killed and restarted" in dom
              and "resume-missing-optimizer-state (step" in dom and "trainproof verify" not in dom,
              "check's page loads as check's, with its runs and the finding at its step")
        c = Counter()
        c.feed(page.read_text())
        check(c.tags.get("svg", 0) >= 2 and c.tags.get("polyline", 0) >= 4, "check's page plots each run")

    # Every command that writes report files takes every format (report_formats()): compare too.
    for command in ("verify", "compare", "check"):
        usage = subprocess.run([binary, command, "--help"], capture_output=True, text=True).stdout
        missing = [o for o in ("--json", "--report", "--junit", "--html", "--markdown") if o not in usage]
        check(not missing, f"{command} --help lacks {missing}")
    cmp = [binary, "compare", str(good / "resume_exact.h5"), str(bad / "resume_exact.h5"), "--device", "cpu"]
    check(subprocess.run(cmp + ["--json", str(tmp / "cmp.json"), "--junit", str(tmp / "cmp.xml"), "--html",
                                str(tmp / "cmp.html")], capture_output=True).returncode == 1,
          "compare fails on the edited golden")
    check(json.loads((tmp / "cmp.json").read_text())["failed"] == 1, "compare's JSON counts the failure")
    check(int(ET.parse(tmp / "cmp.xml").getroot().find("testsuite").get("failures")) == 1,
          "compare's JUnit counts the failure")
    c = Counter()
    c.feed((tmp / "cmp.html").read_text())
    check(c.tags.get("svg", 0) >= 1 and "params_uninterrupted" in (tmp / "cmp.html").read_text(),
          "compare's HTML plots the series")

    # Any format can be the screen ("-"): stdout is then that format alone, the console's table off it.
    shown = subprocess.run([binary, "verify", "underflow", "--device", "cpu", "--golden", str(good), "--json", "-"],
                           capture_output=True, text=True)
    check(shown.returncode == 0 and json.loads(shown.stdout)["command"] == "verify",
          f"verify --json - prints the JSON alone: {shown.stdout[:300]}")
    shown = subprocess.run([binary, "verify", "resume_exact", "--device", "cpu", "--golden", str(bad), "--markdown",
                            "-"], capture_output=True, text=True)
    check(shown.returncode == 1 and shown.stdout.startswith("### trainproof verify: FAILED")
          and "| resume_exact | cpu | `params_uninterrupted` | FAIL |" in shown.stdout,
          f"verify --markdown - prints the checks not passing:\n{shown.stdout[:600]}")

    md = tmp / "regen.md"
    subprocess.run([binary, "regen", "resume_exact", "--device", "cpu", "--path-set", "native", "--golden", str(bad),
                    "--markdown", str(md)],
                   check=True, capture_output=True)
    text = md.read_text()
    check("| resume_exact | cpu | `params_uninterrupted` | changed | 23 of 385 |" in text, f"regen markdown:\n{text}")
    check("| resume_exact | cpu | `params_uninterrupted` | float32 | `ulp(4)` | 0 | none | " in text,
          f"regen markdown lists each series' tolerance and what it catches:\n{text}")
print(f"{passed} passed, 0 failed")
