"""A UCI engine driven line by line, for the measuring scripts beside this
file: started with one thread, 64 MB and the variant set."""
import subprocess
import sys


class UciEngine:
    def __init__(self, command, variant):
        self.p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        self.send(f"setoption name Variant value {variant}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines up to and with the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before {prefix!r}")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
        self.p.wait()
