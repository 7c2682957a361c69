// simdjson_worker.cc: the parse ceiling of bench/bench_parse: simdjson's DOM
// parser on the same body, driven by bench_parse over two pipes as its own
// workers are (read an iteration count on stdin, parse that many times,
// write the CPU seconds it took on stdout; a count of 0 ends it).  Built by
// bench/parse.sh when Debian's libsimdjson-dev is installed; benchmark
// code only, never part of gpt.fcgi.
//
//   simdjson_worker BODY-FILE
#include <simdjson.h>

#include <cstdio>
#include <ctime>
#include <unistd.h>

static double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdjson_worker BODY-FILE\n");
    return 2;
  }
  simdjson::padded_string body;
  if (simdjson::padded_string::load(argv[1]).get(body)) {
    std::fprintf(stderr, "simdjson_worker: cannot read %s\n", argv[1]);
    return 2;
  }
  simdjson::dom::parser parser;
  unsigned n;
  volatile size_t sink = 0;
  while (read(0, &n, sizeof(n)) == sizeof(n) && n > 0) {
    double t = cpu_now();
    for (unsigned k = 0; k < n; k++) {
      simdjson::dom::element doc;
      if (parser.parse(body).get(doc)) {
        std::fprintf(stderr, "simdjson_worker: the body does not parse\n");
        return 1;
      }
      sink = sink + doc.is_object();
    }
    t = cpu_now() - t;
    if (write(1, &t, sizeof(t)) != sizeof(t))
      return 1;
  }
  return 0;
}
