#!/usr/bin/env python3
"""readme.py: the README's commands, as tests/readme.sh runs them.

    readme.py README PORT HOME OUT

Reads the README's indented blocks and writes to the directory OUT:

  session.sh  the section "Your first address", top to bottom, as one
              shell script: a block of commands as it is (a line that
              starts `lighttpd -D` is started in the background, since a
              reader leaves it running in a terminal of its own), a block
              that starts `{` as form.json and one that starts `#!` as
              hook (the reader writes them with an editor), and a
              transcript (`$ ` lines) as its commands, each one's output
              kept in out.N;
  expect.N    what the transcript shows for command N, to be found in
              out.N (checked by `readme.py --check OUT`);
  build.sh    the section's first command line (the build);
  two         the commands of "The two commands", one a line;
  rename.sh   the rename recipe: the block after "Replace form.json by
              rename".

The port 8080 in the README becomes PORT, and /home/you in a transcript
becomes HOME; nothing else is changed, so the test fails as soon as the
README and the code part.
"""
import os
import re
import sys


def sections(lines):
    """Map each section title (a line over a line of dashes) to its lines."""
    out = {}
    title = None
    i = 0
    while i < len(lines):
        if (i + 1 < len(lines) and lines[i].strip()
                and re.fullmatch(r"-{3,}", lines[i + 1])
                and not lines[i].startswith(" ")):
            title = lines[i]
            out[title] = []
            i += 2
            continue
        if title is not None:
            out[title].append(lines[i])
        i += 1
    return out


def blocks(lines):
    """The indented blocks of a section, each with the prose before it."""
    res = []
    prose = []
    cur = None
    for line in lines + [""]:
        if line.startswith("    "):
            if cur is None:
                cur = []
            cur.append(line[4:])
        elif line.strip() == "" and cur is not None:
            cur.append("")
        else:
            if cur is not None:
                while cur and cur[-1] == "":
                    cur.pop()
                res.append((" ".join(prose), cur))
                cur = None
                prose = []
            if line.strip():
                prose.append(line.strip())
            elif not line.strip() and cur is None:
                pass
    return res


def logical(block):
    """Join continued lines (a trailing backslash) into commands."""
    cmds = []
    cur = []
    for line in block:
        cur.append(line)
        if not line.endswith("\\"):
            cmds.append("\n".join(cur))
            cur = []
    if cur:
        cmds.append("\n".join(cur))
    return [c for c in cmds if c.strip()]


def fail(msg):
    sys.stderr.write("readme.py: %s\n" % msg)
    sys.exit(1)


def check(out):
    bad = 0
    n = 0
    while os.path.exists(os.path.join(out, "expect.%d" % n)):
        with open(os.path.join(out, "expect.%d" % n)) as f:
            expect = f.read().splitlines()
        try:
            with open(os.path.join(out, "out.%d" % n), errors="replace") as f:
                got = f.read()
        except FileNotFoundError:
            got = ""
        pos = 0
        for line in expect:
            # "..." in a transcript stands for what it leaves out.
            for seg in (s.strip() for s in line.split("...")):
                if not seg:
                    continue
                at = got.find(seg, pos)
                if at < 0:
                    with open(os.path.join(out, "cmd.%d" % n)) as f:
                        cmd = f.read().strip()
                    print("FAIL: README transcript: `%s` does not print %r;"
                          " it printed:\n%s" % (cmd, seg, got[:1500]))
                    bad += 1
                    break
                pos = at + len(seg)
            else:
                continue
            break
        n += 1
    print("%d transcript commands checked, %d differ" % (n, bad))
    return 1 if bad or n == 0 else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2]))
    if len(sys.argv) != 5:
        fail("usage: readme.py README PORT HOME OUT | --check OUT")
    readme, port, home, out = sys.argv[1:]
    with open(readme) as f:
        lines = f.read().splitlines()
    secs = sections(lines)
    first = secs.get("Your first address")
    two = secs.get("The two commands")
    if first is None or two is None:
        fail('no section "Your first address" or "The two commands"')

    sh = ["# the README's \"Your first address\", as a reader runs it",
          "readme_failed() { printf '%s\\n' \"$1\" >\"$READ_OUT/failed\";"
          " exit 1; }",
          "readme_up() { i=0; while [ $i -lt 100 ]; do",
          "  curl -s --max-time 1 -o /dev/null \"$1\" && return 0",
          "  sleep 0.1; i=$((i + 1)); done; return 1; }"]
    n = 0
    build = None
    for _, block in blocks(first):
        text = "\n".join(block).replace("8080", port)
        block = text.split("\n")
        if block[0].startswith("{"):
            sh.append("cat >form.json <<'README_EOF'\n%s\nREADME_EOF" % text)
        elif block[0].startswith("#!"):
            sh.append("cat >hook <<'README_EOF'\n%s\nREADME_EOF" % text)
        elif any(line.startswith("$ ") for line in block):
            # Commands, then a blank line and a transcript, are one block:
            # the commands run first.
            k = next(i for i, line in enumerate(block) if line.startswith("$ "))
            for c in logical(block[:k]):
                commands(sh, c, port)
            block = block[k:]
            cmd = None
            expect = []

            def flush():
                nonlocal n
                if cmd is None:
                    return
                with open(os.path.join(out, "cmd.%d" % n), "w") as f:
                    f.write(cmd + "\n")
                with open(os.path.join(out, "expect.%d" % n), "w") as f:
                    for e in expect:
                        f.write(e.replace("/home/you", home) + "\n")
                sh.append("{ %s\n} >\"$READ_OUT/out.%d\" 2>&1 </dev/null"
                          " || true" % (cmd, n))
                n += 1

            i = 0
            while i < len(block):
                line = block[i]
                if line.startswith("$ "):
                    flush()
                    c = [line[2:]]
                    while c[-1].endswith("\\") and i + 1 < len(block):
                        i += 1
                        c.append(block[i])
                    cmd = "\n".join(c)
                    expect = []
                elif line.strip():
                    expect.append(line)
                i += 1
            flush()
        else:
            for c in logical(block):
                if build is None:
                    build = c
                commands(sh, c, port)
    if n == 0:
        fail('"Your first address" shows no transcript')
    with open(os.path.join(out, "session.sh"), "w") as f:
        f.write("\n".join(sh) + "\n")
    with open(os.path.join(out, "build.sh"), "w") as f:
        f.write(build + "\n")

    cmds = []
    for _, block in blocks(two):
        for c in logical(block):
            cmds.append(c.split("#")[0].strip())
    with open(os.path.join(out, "two"), "w") as f:
        f.write("\n".join(cmds) + "\n")

    recipe = None
    for title, sec in secs.items():
        for prose, block in blocks(sec):
            if "Replace form.json by rename" in prose:
                recipe = block
    if recipe is None:
        fail("no block after \"Replace form.json by rename\"")
    with open(os.path.join(out, "rename.sh"), "w") as f:
        f.write("\n".join(recipe) + "\n")


def commands(sh, c, port):
    """One command of a block, stopping the session if it fails."""
    if re.match(r"(/usr/sbin/)?lighttpd -D", c):
        sh.append("%s >\"$READ_OUT/lighttpd.out\" 2>&1 &\n"
                  "echo $! >\"$READ_OUT/lighttpd.pid\"\n"
                  "readme_up http://127.0.0.1:%s/ || readme_failed %s" %
                  (c, port, shquote(c)))
    else:
        sh.append("%s || readme_failed %s" % (c, shquote(c)))


def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


if __name__ == "__main__":
    main()
