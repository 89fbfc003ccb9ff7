// pipeline.cpp - the best case, end to end: how fast could a whole ingest be on this machine?
// A simdjson reader (the parsing of floor.cpp, plus the same row layout as our ingest: a charge
// item per standard charge, its codes, its rates) writes four COPY streams over libpq, each on its
// own writer thread: items, codes, and the rates split in two halves loaded by two backends.
// Every table is created in the COPY's own transaction (wal_level=minimal: no WAL), its keys
// and indexes as the ingest has them, the rate keys and the code index built after the COPY, then
// COMMIT.
// Rate columns: `today` = negotiated_rates as it is (numeric amounts, text methodology);
// `scaled` = amounts as bigint cents, methodology and origin as smallint; `bin` = scaled, and
// the rates in binary COPY. It leaves out what a real ingest must also do: the full validation
// report, the swap, the run's record, the `codes` list, payer/plan ids from the database,
// streaming the file (it reads it whole), gzip/zip, CSV. A measurement for ADR 0013
// ("Session 8"); not built by npm or CI.
//   apt-get install -y libsimdjson-dev libpq-dev
//   g++ -O2 -march=native -std=c++17 pipeline.cpp -I/usr/include/postgresql -lsimdjson -lpq -lpthread -o pipeline
//   ./pipeline <file.json> <postgres url, migrated> <today|scaled|bin> <table suffix>
// pipeline-run.sh runs it beside `openssl dgst -sha256` of the same file (the run's identity) and
// prints the wall time and the PostgreSQL server's CPU time.
#include <simdjson.h>
#include <libpq-fe.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>
#include <deque>
#include <thread>
#include <mutex>
#include <condition_variable>
#include <chrono>

using namespace simdjson;
using std::string_view;

static const size_t BUFCAP = 256 * 1024;
static const char *HOSP = "f2919d72-b227-45d5-a518-cfd421f23fd9";

struct Stream {
  std::string name;
  PGconn *conn = nullptr;
  std::string cur;
  std::deque<std::string> q;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread th;
  std::vector<std::string> after;  // statements after COPY, before COMMIT
  double copy_end = 0, commit_end = 0;
};

static std::chrono::steady_clock::time_point T0;
static double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count(); }

static void exec_or_die(PGconn *c, const std::string &sql) {
  PGresult *r = PQexec(c, sql.c_str());
  auto st = PQresultStatus(r);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_COPY_IN) {
    fprintf(stderr, "SQL failed: %s\n%s\n", sql.c_str(), PQerrorMessage(c));
    exit(1);
  }
  PQclear(r);
}

static void writer(Stream *s) {
  for (;;) {
    std::string b;
    {
      std::unique_lock<std::mutex> lk(s->m);
      s->cv.wait(lk, [&] { return !s->q.empty() || s->done; });
      if (s->q.empty() && s->done) break;
      b = std::move(s->q.front());
      s->q.pop_front();
    }
    s->cv.notify_all();
    if (PQputCopyData(s->conn, b.data(), int(b.size())) != 1) { fprintf(stderr, "put: %s\n", PQerrorMessage(s->conn)); exit(1); }
  }
  if (PQputCopyEnd(s->conn, nullptr) != 1) { fprintf(stderr, "end: %s\n", PQerrorMessage(s->conn)); exit(1); }
  PGresult *r;
  while ((r = PQgetResult(s->conn))) {
    if (PQresultStatus(r) != PGRES_COMMAND_OK) { fprintf(stderr, "copy: %s\n", PQerrorMessage(s->conn)); exit(1); }
    PQclear(r);
  }
  s->copy_end = now_s();
  for (auto &sql : s->after) exec_or_die(s->conn, sql);
  exec_or_die(s->conn, "COMMIT");
  s->commit_end = now_s();
}

static void ship(Stream *s) {
  std::unique_lock<std::mutex> lk(s->m);
  s->cv.wait(lk, [&] { return s->q.size() < 16; });
  s->q.push_back(std::move(s->cur));
  s->cur.clear();
  s->cur.reserve(BUFCAP);
  lk.unlock();
  s->cv.notify_all();
}

static Stream *S_items, *S_codes, *S_ra, *S_rb;
static std::string *bufp;
static Stream *curs;
#define buf (*bufp)
static inline void use(Stream *s) { curs = s; bufp = &s->cur; }
static inline void flush_if_full() { if (buf.size() >= BUFCAP - 4096) ship(curs); }
static inline void put(string_view s) { buf.append(s.data(), s.size()); }
static inline void putc_(char c) { buf.push_back(c); }
static inline void tab() { buf.push_back('\t'); }
static inline void nl() { buf.push_back('\n'); flush_if_full(); }
static inline void null_() { buf.append("\\N", 2); }

#include "common.hpp"

static bool binary = false;
static inline void be16(int v) { char b[2] = {char((v >> 8) & 0xff), char(v & 0xff)}; buf.append(b, 2); }
static inline void be32(long v) { uint32_t u = uint32_t(v); char b[4] = {char(u >> 24), char(u >> 16), char(u >> 8), char(u)}; buf.append(b, 4); }
static inline void be64(long long v) { uint64_t u = uint64_t(v); char b[8]; for (int i = 7; i >= 0; i--) { b[i] = char(u & 0xff); u >>= 8; } buf.append(b, 8); }
static inline void bnull() { be32(-1); }
static inline void bi2(int v) { be32(2); be16(v); }
static inline void bi4(long v) { be32(4); be32(v); }
static inline void bi8(long long v) { be32(8); be64(v); }
static inline void bcents(const Scalar &s) { if (s.present()) bi8(llround(s.d * 100.0)); else bnull(); }
static inline void btext(const Scalar &s) { if (s.present()) { be32(long(s.text.size())); put(s.text); } else bnull(); }

static bool scaled = false;

static long long n_items = 0, n_codes = 0, n_rates = 0, n_bad = 0;

static inline int methodology_code(string_view m) {
  if (m == "case rate") return 1;
  if (m == "fee schedule") return 2;
  if (m == "percent of total billed charges") return 3;
  if (m == "per diem") return 4;
  if (m == "other") return 5;
  return 0;
}

static inline string_view category(string_view type, string_view code) {
  if (type == "CPT") {
    char c = code.empty() ? '0' : code[0];
    if (c == '9' && code.size() > 1 && code[1] == '9') return "Evaluation and Management";
    if (c == '0') return "Anesthesia";
    if (c == '7') return "Radiology";
    if (c == '8') return "Pathology and Laboratory";
    if (c == '9') return "Medicine";
    return "Surgery";
  }
  if (type == "RC") return "Revenue code";
  if (type == "MS-DRG") return "DRG inpatient";
  if (type == "NDC") return "Drugs";
  return "HCPCS";
}

static inline void put_cents(const Scalar &s) {
  if (s.kind == Scalar::NUM || s.kind == Scalar::STR) put_int(llround(s.d * 100.0));
  else null_();
}
static inline void put_amount(const Scalar &s) { if (scaled) put_cents(s); else put_sc(s); }

// The effective dollar amount and its origin (1 dollar, 2 percentage of gross, 3 median,
// 4 estimated; 0 none), as the ingest derives it.
static inline double effective(const Payer &p, const Scalar &gross, int &origin) {
  if (p.dollar.present()) { origin = 1; return p.dollar.d; }
  if (p.pct.present() && gross.present()) { origin = 2; return p.pct.d * gross.d / 100.0; }
  if (p.median.present()) { origin = 3; return p.median.d; }
  if (p.est.present()) { origin = 4; return p.est.d; }
  origin = 0;
  return 0;
}

static void do_item(ondemand::object item) {
  Scalar desc, drug_unit, drug_type;
  std::vector<Code> codes;
  Charge charge;  // per standard charge, reused
  charge.payers.reserve(32);
  for (auto field : item) {
    string_view k = field.unescaped_key();
    ondemand::value v = field.value();
    if (k == "description") desc = read_text(v);
    else if (k == "code_information") {
      for (auto cv : v.get_array()) codes.push_back(read_code(cv.get_object()));
    } else if (k == "drug_information") {
      read_drug(v.get_object(), drug_unit, drug_type);
    } else if (k == "standard_charges") {
      for (auto scv : v.get_array()) {
        long long item_id = ++n_items;
        read_charge(scv.get_object(), charge);
        const Scalar &setting = charge.setting, &gross = charge.gross, &cash = charge.cash,
                     &mn = charge.mn, &mx = charge.mx, &bclass = charge.bclass, &gnotes = charge.gnotes;
        const std::vector<string_view> &mods = charge.mods;
        const std::vector<Payer> &payers = charge.payers;
        // item row: item_id, description, setting, billing_class, modifiers, drug_unit, drug_type, gross, discounted_cash, min, max, notes
        use(S_items);
        put_int(item_id); tab(); put_sc(desc); tab(); put_sc(setting); tab(); put_sc(bclass); tab();
        putc_('{'); for (size_t i = 0; i < mods.size(); i++) { if (i) putc_(','); put_esc(mods[i]); } putc_('}'); tab();
        put_sc(drug_unit); tab(); put_sc(drug_type); tab();
        put_sc(gross); tab(); put_sc(cash); tab(); put_sc(mn); tab(); put_sc(mx); tab(); put_sc(gnotes); nl();
        // codes: item_id, code_type, code, category
        use(S_codes);
        for (const Code &c : codes) {
          n_codes++;
          put_int(item_id); tab(); put_sc(c.type); tab(); put_sc(c.code); tab(); put(category(c.type.text, c.code.text)); nl();
        }
        // rates: rate_id, item_id, plan_id, methodology, dollar, percentage, algorithm, estimated_amount, median, p10, p90, count, notes, effective_amount, effective_origin
        use(item_id & 1 ? S_ra : S_rb);
        for (const Payer &p : payers) {
          long long rate_id = ++n_rates;
          bool ok = p.methodology.present() && methodology_code(p.methodology.text) &&
                    (p.dollar.present() || p.pct.present() || p.algo.present()) &&
                    !(p.methodology.text == "other" && !p.notes.present()) &&
                    p.payer_name.present() && p.plan_name.present();
          if (!ok) { n_bad++; continue; }
          int pid = payer_id(p.payer_name.text, p.plan_name.text);
          if (binary) {
            be16(15); bi4(rate_id); bi4(item_id); bi4(pid); bi2(methodology_code(p.methodology.text));
            bcents(p.dollar); if (p.pct.present()) bi4(llround(p.pct.d * 100.0)); else bnull(); btext(p.algo); bcents(p.est);
            bcents(p.median); bcents(p.p10); bcents(p.p90); btext(p.count); btext(p.notes);
            int o = 0;
            double e = effective(p, gross, o);
            if (o) { bi8(llround(e * 100.0)); bi2(o); } else { bnull(); bnull(); }
            flush_if_full();
            continue;
          }
          put_int(rate_id); tab(); put_int(item_id); tab(); put_int(pid); tab();
          if (scaled) put_int(methodology_code(p.methodology.text)); else put_sc(p.methodology);
          tab();
          put_amount(p.dollar); tab(); put_sc(p.pct); tab(); put_sc(p.algo); tab(); put_amount(p.est); tab();
          put_amount(p.median); tab(); put_amount(p.p10); tab(); put_amount(p.p90); tab(); put_sc(p.count); tab();
          put_sc(p.notes); tab();
          int origin = 0;
          double eff = effective(p, gross, origin);
          if (!origin) { null_(); tab(); null_(); }
          else if (scaled) { put_int(llround(eff * 100.0)); tab(); put_int(origin); }
          else {
            put_money(eff); tab();
            put(origin == 1 ? "dollar" : origin == 2 ? "percentage-of-gross" : origin == 3 ? "median" : "estimated");
          }
          nl();
        }
      }
    }
  }
}

static Stream *open_stream(const char *conninfo, const std::string &name, const std::string &create,
                           const std::string &copy, std::vector<std::string> after) {
  auto *s = new Stream();
  s->name = name;
  s->conn = PQconnectdb(conninfo);
  if (PQstatus(s->conn) != CONNECTION_OK) { fprintf(stderr, "connect: %s\n", PQerrorMessage(s->conn)); exit(1); }
  exec_or_die(s->conn, "BEGIN");
  exec_or_die(s->conn, create);
  exec_or_die(s->conn, copy);
  s->after = std::move(after);
  s->cur.reserve(BUFCAP);
  s->th = std::thread(writer, s);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: %s file.json conninfo today|scaled tag\n", argv[0]); return 2; }
  T0 = std::chrono::steady_clock::now();
  const char *ci = argv[2];
  binary = std::string(argv[3]) == "bin";
  scaled = binary || std::string(argv[3]) == "scaled";
  std::string tag = argv[4];
  std::string H = HOSP;
  std::string chk = " CHECK (hospital_id = '" + H + "')";
  auto like = [&](const std::string &t, const std::string &parent) {
    return "CREATE TABLE " + t + " (LIKE " + parent + "," + chk + "); ALTER TABLE " + t +
           " ALTER COLUMN hospital_id SET DEFAULT '" + H + "'";
  };
  std::string ti = "pi_" + tag, tc = "pc_" + tag, ta = "pa_" + tag, tb = "pb_" + tag;
  S_items = open_stream(ci, "items",
                        like(ti, "charge_items") + "; ALTER TABLE " + ti + " ALTER COLUMN mrf_file_id SET DEFAULT gen_random_uuid(); ALTER TABLE " + ti + " ADD PRIMARY KEY (hospital_id, item_id)",
                        "COPY " + ti + " (item_id, description, setting, billing_class, modifiers, drug_unit, drug_type, gross, discounted_cash, min, max, notes) FROM STDIN WITH (FREEZE)", {});
  S_codes = open_stream(ci, "codes",
                        like(tc, "item_codes") + "; ALTER TABLE " + tc + " ADD PRIMARY KEY (hospital_id, item_id, code_type, code)",
                        "COPY " + tc + " (item_id, code_type, code, category) FROM STDIN WITH (FREEZE)", {"CREATE INDEX ON " + tc + " (code, code_type, hospital_id)"});
  auto rates_create = [&](const std::string &t) {
    if (!scaled) return like(t, "negotiated_rates");
    return "CREATE TABLE " + t + " (hospital_id uuid NOT NULL DEFAULT '" + H + "', rate_id integer NOT NULL, item_id integer NOT NULL, plan_id integer NOT NULL, methodology smallint NOT NULL, dollar bigint, " + std::string(binary ? "percentage integer" : "percentage numeric") + ", algorithm text, estimated_amount bigint, median bigint, p10 bigint, p90 bigint, count text, notes text, effective_amount bigint, effective_origin smallint," + chk + ")";
  };
  const char *rcols = " (rate_id, item_id, plan_id, methodology, dollar, percentage, algorithm, estimated_amount, median, p10, p90, count, notes, effective_amount, effective_origin)";
  S_ra = open_stream(ci, "ratesA", rates_create(ta), "COPY " + ta + rcols + " FROM STDIN WITH (FREEZE" + (binary ? ", FORMAT binary" : "") + ")",
                     {"ALTER TABLE " + ta + " ADD PRIMARY KEY (hospital_id, item_id, rate_id)"});
  S_rb = open_stream(ci, "ratesB", rates_create(tb), "COPY " + tb + rcols + " FROM STDIN WITH (FREEZE" + (binary ? ", FORMAT binary" : "") + ")",
                     {"ALTER TABLE " + tb + " ADD PRIMARY KEY (hospital_id, item_id, rate_id)"});
  if (binary)
    for (Stream *s : {S_ra, S_rb}) { use(s); buf.append("PGCOPY\n\377\r\n\0", 11); be32(0); be32(0); }
  double t_ready = now_s();
  padded_string json;
  auto err = padded_string::load(argv[1]).get(json);
  if (err) { fprintf(stderr, "load error: %s\n", error_message(err)); return 1; }
  double t_loaded = now_s();
  try {
    ondemand::parser parser;
    ondemand::document doc = parser.iterate(json);
    for (auto field : doc.get_object()) {
      string_view k = field.unescaped_key();
      if (k == "standard_charge_information") {
        for (auto iv : field.value().get_array()) do_item(iv.get_object());
      }
    }
  } catch (simdjson_error &e) {
    fprintf(stderr, "simdjson error: %s\n", e.what());
    return 1;
  }
  double t_parsed = now_s();
  if (binary) for (Stream *s : {S_ra, S_rb}) { use(s); be16(-1); }
  for (Stream *s : {S_items, S_codes, S_ra, S_rb}) {
    if (!s->cur.empty()) ship(s);
    { std::lock_guard<std::mutex> lk(s->m); s->done = true; }
    s->cv.notify_all();
  }
  for (Stream *s : {S_items, S_codes, S_ra, S_rb}) s->th.join();
  double t_end = now_s();
  fprintf(stderr, "mode=%s connect+create=%.3f read=%.3f parse-to=%.3f total=%.3f items=%lld codes=%lld rates=%lld bad=%lld pairs=%zu\n",
          argv[3], t_ready, t_loaded, t_parsed, t_end, n_items, n_codes, n_rates, n_bad, payer_ids.size());
  for (Stream *s : {S_items, S_codes, S_ra, S_rb})
    fprintf(stderr, "  %-7s copy end %.3f commit %.3f\n", s->name.c_str(), s->copy_end, s->commit_end);
  printf("%.3f\n", t_end);
  return 0;
}
