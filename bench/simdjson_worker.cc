// simdjson_worker.cc: the parse ceiling of bench/bench_parse: simdjson's DOM
// parser on the same body, driven by bench_parse over two pipes as its own
// workers are (read an iteration count on stdin, parse that many times,
// write the CPU seconds it took on stdout; a count of 0 ends it).  Built by
// bench/parse.sh when Debian's libsimdjson-dev is installed; benchmark
// code only, never part of gpt.fcgi.
//
//   simdjson_worker [--kernel NAME] [--lines] BODY-FILE
//   simdjson_worker --kernels
//
// --lines: the file is JSON Lines, each non-empty line parsed on its own
// (bench_parse corpus); each line is copied once, up front, into a padded
// string of its own, so the loop times only the parses.
// --kernel: parse with that one of simdjson's kernels ("icelake" is its
// AVX-512 one, "haswell" its AVX2 one), not the one it picks for this CPU.
// --kernels: print the kernel it picks for this CPU, then the others this
// CPU runs, a line each.
// --hold: the file is JSON Lines; parse each line once into a document of
// its own, all held at once, and exit (bench/heap.sh measures the peak of
// its heap, as it does gpt.fcgi's with every instance's tree held).
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

static int usage() {
  std::fprintf(stderr, "usage: simdjson_worker [--kernel NAME] "
                       "[--lines | --hold] BODY-FILE | --kernels\n");
  return 2;
}

int main(int argc, char **argv) {
  const auto &kernels = simdjson::get_available_implementations();
  bool lines = false, hold = false;
  int i = 1;
  if (argc == 2 && std::strcmp(argv[1], "--kernels") == 0) {
    const std::string chosen = simdjson::get_active_implementation()->name();
    std::printf("%s\n", chosen.c_str());
    for (auto k : kernels)
      if (k->supported_by_runtime_system() && k->name() != chosen)
        std::printf("%s\n", k->name().c_str());
    return 0;
  }
  if (i + 1 < argc && std::strcmp(argv[i], "--kernel") == 0) {
    auto k = kernels[argv[i + 1]];
    if (k == nullptr || !k->supported_by_runtime_system()) {
      std::fprintf(stderr, "simdjson_worker: no kernel %s on this CPU\n",
                   argv[i + 1]);
      return 2;
    }
    simdjson::get_active_implementation() = k;
    i += 2;
  }
  if (i < argc && std::strcmp(argv[i], "--lines") == 0) {
    lines = true;
    i++;
  } else if (i < argc && std::strcmp(argv[i], "--hold") == 0) {
    lines = hold = true;
    i++;
  }
  if (i + 1 != argc)
    return usage();
  simdjson::padded_string body;
  if (simdjson::padded_string::load(argv[i]).get(body)) {
    std::fprintf(stderr, "simdjson_worker: cannot read %s\n", argv[i]);
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
  if (hold) {
    // the text once, as the lines' padded copies: the file's buffer goes
    body = simdjson::padded_string();
    std::vector<simdjson::dom::document> held(docs.size());
    for (size_t k = 0; k < docs.size(); k++) {
      simdjson::dom::element doc;
      if (parser.parse_into_document(held[k], docs[k].data(), docs[k].size())
              .get(doc)) {
        std::fprintf(stderr, "simdjson_worker: a line does not parse\n");
        return 1;
      }
    }
    return 0;
  }
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
