// simdjson_worker.cc: the parse ceiling of bench/bench_parse: simdjson's DOM
// parser on the same body, driven by bench_parse over two pipes as its own
// workers are (read an iteration count on stdin, parse that many times,
// write the CPU seconds it took on stdout; a count of 0 ends it).  Built by
// bench/parse.sh when Debian's libsimdjson-dev is installed; benchmark
// code only, never part of gpt.fcgi.
//
//   simdjson_worker [--lines] BODY-FILE
//
// --lines: the file is JSON Lines, each non-empty line parsed on its own
// (bench_parse corpus); each line is copied once, up front, into a padded
// string of its own, so the loop times only the parses.
#include <simdjson.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <vector>

static double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

int main(int argc, char **argv) {
  bool lines = argc == 3 && std::strcmp(argv[1], "--lines") == 0;
  if (argc != 2 && !lines) {
    std::fprintf(stderr, "usage: simdjson_worker [--lines] BODY-FILE\n");
    return 2;
  }
  simdjson::padded_string body;
  if (simdjson::padded_string::load(argv[argc - 1]).get(body)) {
    std::fprintf(stderr, "simdjson_worker: cannot read %s\n", argv[argc - 1]);
    return 2;
  }
  std::vector<simdjson::padded_string> docs;
  if (lines) {
    const char *p = body.data(), *end = p + body.size();
    while (p < end) {
      const char *nl = static_cast<const char *>(
          std::memchr(p, '\n', size_t(end - p)));
      size_t n = nl != nullptr ? size_t(nl - p) : size_t(end - p);
      if (n > 0)
        docs.emplace_back(p, n);
      p += n + 1;
    }
  } else {
    docs.emplace_back(body.data(), body.size());
  }
  simdjson::dom::parser parser;
  unsigned n;
  volatile size_t sink = 0;
  while (read(0, &n, sizeof(n)) == sizeof(n) && n > 0) {
    double t = cpu_now();
    for (unsigned k = 0; k < n; k++) {
      for (const auto &d : docs) {
        simdjson::dom::element doc;
        if (parser.parse(d).get(doc)) {
          std::fprintf(stderr, "simdjson_worker: a body does not parse\n");
          return 1;
        }
        sink = sink + doc.is_object();
      }
    }
    t = cpu_now() - t;
    if (write(1, &t, sizeof(t)) != sizeof(t))
      return 1;
  }
  return 0;
}
