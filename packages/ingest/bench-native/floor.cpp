// floor.cpp - native floor measurement: CMS price-transparency JSON (v3.0 layout)
// -> PostgreSQL COPY text lines, using simdjson On-Demand.
//
// NOTE: the whole file is loaded into one simdjson::padded_string (simple, but
// memory ~ file size + simdjson string buffer ~ file size). A streaming reader
// would bound memory; this program measures CPU cost only.
//
// Output: one stream, each line prefixed by a table tag (I=item, C=code,
// R=rate, M=modifier payer entry) followed by a tab, then COPY text columns
// (tab separated, \N = NULL, backslash/tab/newline/CR escaped).
//
// Kept as the measurement behind ADR 0013's "Session 7" section; not built by npm or CI.
//   apt-get install -y libsimdjson-dev
//   g++ -O2 -std=c++17 floor.cpp -lsimdjson -o floor
//   /usr/bin/time -v ./floor generated.json /dev/null
//
// usage: floor <file.json> <out-path> [full|parse|load]
//   full  (default) parse + build lines + fwrite
//   parse           walk/parse/validate/payer-map everything, but do not build lines
//   load            only read the file into memory, then exit
#include <simdjson.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>
#include <chrono>

using namespace simdjson;
using std::string_view;

static FILE *out = nullptr;
static std::string buf;
static const size_t BUFCAP = 256 * 1024;
static bool emit = true;

static inline void flush_if_full() {
  if (buf.size() >= BUFCAP - 4096) {
    fwrite(buf.data(), 1, buf.size(), out);
    buf.clear();
  }
}
static inline void put(string_view s) { buf.append(s.data(), s.size()); }
static inline void putc_(char c) { buf.push_back(c); }
static inline void tab() { buf.push_back('\t'); }
static inline void nl() { buf.push_back('\n'); flush_if_full(); }
static inline void null_() { buf.append("\\N", 2); }

// COPY text escaping
static inline void put_esc(string_view s) {
  size_t start = 0;
  for (size_t i = 0; i < s.size(); i++) {
    char c = s[i];
    const char *rep = nullptr;
    switch (c) {
      case '\\': rep = "\\\\"; break;
      case '\t': rep = "\\t"; break;
      case '\n': rep = "\\n"; break;
      case '\r': rep = "\\r"; break;
      default: continue;
    }
    buf.append(s.data() + start, i - start);
    buf.append(rep, 2);
    start = i + 1;
  }
  buf.append(s.data() + start, s.size() - start);
}

static inline void put_int(long long v) {
  char tmp[24]; int n = 0;
  bool neg = v < 0; unsigned long long u = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do { tmp[n++] = char('0' + u % 10); u /= 10; } while (u);
  if (neg) buf.push_back('-');
  while (n) buf.push_back(tmp[--n]);
}

// up to 2 decimals, trailing zeros trimmed
static inline void put_money(double x) {
  long long c = llround(x * 100.0);
  if (c < 0) { buf.push_back('-'); c = -c; }
  put_int(c / 100);
  int f = int(c % 100);
  if (f) {
    buf.push_back('.');
    buf.push_back(char('0' + f / 10));
    if (f % 10) buf.push_back(char('0' + f % 10));
  }
}

static inline string_view trim_ws(string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A scalar captured for later emission.
struct Scalar {
  enum Kind : uint8_t { ABSENT, NUL, NUM, STR } kind = ABSENT;
  string_view text;   // raw number text or unescaped string (points into input / parser string buffer)
  double d = 0;       // numeric value if NUM
  bool present() const { return kind == NUM || kind == STR; }
};

// Read any scalar (number/string/null/bool) into Scalar. Numbers keep raw text.
static inline Scalar read_scalar(ondemand::value v) {
  Scalar s;
  ondemand::json_type t = v.type();
  switch (t) {
    case ondemand::json_type::number: {
      s.text = trim_ws(v.raw_json_token());
      s.d = double(v.get_double());
      s.kind = Scalar::NUM; break;
    }
    case ondemand::json_type::string:
      s.text = string_view(v.get_string()); s.kind = Scalar::STR;
      { // allow numeric strings for amounts
        char *end = nullptr; std::string tmp(s.text);
        s.d = strtod(tmp.c_str(), &end);
      }
      break;
    case ondemand::json_type::null: s.kind = Scalar::NUL; break;
    case ondemand::json_type::boolean:
      s.text = bool(v.get_bool()) ? "true" : "false"; s.kind = Scalar::STR; break;
    default: s.kind = Scalar::NUL; break; // object/array where scalar expected: treat as null (skipped)
  }
  return s;
}
// string-typed field (number-valued strings like "count" kept as text)
static inline Scalar read_text(ondemand::value v) {
  Scalar s;
  ondemand::json_type t = v.type();
  if (t == ondemand::json_type::string) { s.text = string_view(v.get_string()); s.kind = Scalar::STR; }
  else if (t == ondemand::json_type::number) { s.text = trim_ws(v.raw_json_token()); s.kind = Scalar::NUM; }
  else if (t == ondemand::json_type::null) { s.kind = Scalar::NUL; }
  else if (t == ondemand::json_type::boolean) { s.text = bool(v.get_bool()) ? "true" : "false"; s.kind = Scalar::STR; }
  else s.kind = Scalar::NUL;
  return s;
}

static inline void put_sc(const Scalar &s) {
  if (s.kind == Scalar::NUM) put(s.text);
  else if (s.kind == Scalar::STR) put_esc(s.text);
  else null_();
}

struct Payer {
  Scalar payer_name, plan_name, dollar, pct, algo, median, p10, p90, count, methodology, notes;
};

// payer/plan map
static std::unordered_map<std::string, int> payer_ids;
static std::string keybuf;
static inline int payer_id(string_view payer, string_view plan) {
  keybuf.assign(payer.data(), payer.size());
  keybuf.push_back('\x1f');
  keybuf.append(plan.data(), plan.size());
  auto it = payer_ids.find(keybuf);
  if (it != payer_ids.end()) return it->second;
  int id = int(payer_ids.size()) + 1;
  payer_ids.emplace(keybuf, id);
  return id;
}

// counters
static long long n_items = 0, n_codes = 0, n_charges = 0, n_rates = 0, n_drugs = 0;
static long long n_mod = 0, n_mod_payers = 0;
static long long v_ok = 0, v_no_method = 0, v_bad_method = 0, v_no_amount = 0, v_other_no_notes = 0, v_no_payer = 0;

static inline bool valid_methodology(string_view m) {
  return m == "case rate" || m == "fee schedule" || m == "percent of total billed charges" ||
         m == "per diem" || m == "other";
}

static void do_item(ondemand::object item, long long item_no) {
  Scalar desc, drug_unit, drug_type;
  long long rate_no = 0;
  std::vector<Payer> payers;            // per standard charge, reused
  std::vector<string_view> mods;
  payers.reserve(32);
  for (auto field : item) {
    string_view k = field.unescaped_key();
    ondemand::value v = field.value();
    if (k == "description") desc = read_text(v);
    else if (k == "code_information") {
      for (auto cv : v.get_array()) {
        Scalar code, type;
        for (auto cf : cv.get_object()) {
          string_view ck = cf.unescaped_key();
          if (ck == "code") code = read_text(cf.value());
          else if (ck == "type") type = read_text(cf.value());
        }
        n_codes++;
        if (emit) { put("C\t"); put_int(item_no); tab(); put_sc(code); tab(); put_sc(type); nl(); }
      }
    } else if (k == "drug_information") {
      n_drugs++;
      for (auto df : v.get_object()) {
        string_view dk = df.unescaped_key();
        if (dk == "unit") drug_unit = read_text(df.value());
        else if (dk == "type") drug_type = read_text(df.value());
      }
    } else if (k == "standard_charges") {
      for (auto scv : v.get_array()) {
        n_charges++;
        Scalar setting, gross, cash, mn, mx, bclass, gnotes;
        mods.clear();
        payers.clear();
        for (auto sf : scv.get_object()) {
          string_view sk = sf.unescaped_key();
          ondemand::value sv = sf.value();
          if (sk == "setting") setting = read_text(sv);
          else if (sk == "gross_charge") gross = read_scalar(sv);
          else if (sk == "discounted_cash") cash = read_scalar(sv);
          else if (sk == "minimum") mn = read_scalar(sv);
          else if (sk == "maximum") mx = read_scalar(sv);
          else if (sk == "billing_class") bclass = read_text(sv);
          else if (sk == "additional_generic_notes") gnotes = read_text(sv);
          else if (sk == "modifier_code") {
            if (sv.type() == ondemand::json_type::array)
              for (auto m : sv.get_array()) mods.push_back(string_view(m.get_string()));
          } else if (sk == "payers_information") {
            for (auto pv : sv.get_array()) {
              Payer p;
              for (auto pf : pv.get_object()) {
                string_view pk = pf.unescaped_key();
                ondemand::value pvv = pf.value();
                switch (pk.size() ? pk[0] : 0) {
                  case 'p': if (pk == "payer_name") p.payer_name = read_text(pvv);
                            else if (pk == "plan_name") p.plan_name = read_text(pvv); break;
                  case 's': if (pk == "standard_charge_dollar") p.dollar = read_scalar(pvv);
                            else if (pk == "standard_charge_percentage") p.pct = read_scalar(pvv);
                            else if (pk == "standard_charge_algorithm") p.algo = read_text(pvv); break;
                  case 'm': if (pk == "median_amount") p.median = read_scalar(pvv);
                            else if (pk == "methodology") p.methodology = read_text(pvv); break;
                  case '1': if (pk == "10th_percentile") p.p10 = read_scalar(pvv); break;
                  case '9': if (pk == "90th_percentile") p.p90 = read_scalar(pvv); break;
                  case 'c': if (pk == "count") p.count = read_text(pvv); break;
                  case 'a': if (pk == "additional_payer_notes") p.notes = read_text(pvv); break;
                  default: break;
                }
              }
              payers.push_back(p);
            }
          }
        }
        // emit rates for this standard charge (fields may appear in any order, hence buffered)
        for (const Payer &p : payers) {
          n_rates++; rate_no++;
          // validation
          bool ok = true;
          if (!p.methodology.present()) { v_no_method++; ok = false; }
          else if (!valid_methodology(p.methodology.text)) { v_bad_method++; ok = false; }
          if (!p.dollar.present() && !p.pct.present() && !p.algo.present()) { v_no_amount++; ok = false; }
          if (p.methodology.present() && p.methodology.text == "other" && !p.notes.present()) { v_other_no_notes++; ok = false; }
          if (!p.payer_name.present() || !p.plan_name.present()) { v_no_payer++; ok = false; }
          if (ok) v_ok++;
          int pid = payer_id(p.payer_name.text, p.plan_name.text);
          if (!emit) continue;
          put("R\t"); put_int(item_no); tab(); put_int(rate_no); tab();
          put_sc(setting); tab(); put_sc(bclass); tab();
          if (mods.empty()) null_();
          else for (size_t i = 0; i < mods.size(); i++) { if (i) putc_('|'); put_esc(mods[i]); }
          tab();
          put_sc(gross); tab(); put_sc(cash); tab(); put_sc(mn); tab(); put_sc(mx); tab();
          put_int(pid); tab();
          put_sc(p.dollar); tab(); put_sc(p.pct); tab(); put_sc(p.algo); tab();
          put_sc(p.median); tab(); put_sc(p.p10); tab(); put_sc(p.p90); tab(); put_sc(p.count); tab();
          put_sc(p.methodology); tab();
          if (p.dollar.present()) put_money(p.dollar.d);
          else if (p.pct.present() && gross.present()) put_money(p.pct.d * gross.d / 100.0);
          else if (p.median.present()) put_money(p.median.d);
          else null_();
          tab(); put_sc(gnotes); tab(); put_sc(p.notes);
          nl();
        }
      }
    }
  }
  if (emit) {
    put("I\t"); put_int(item_no); tab(); put_sc(desc); tab(); put_sc(drug_unit); tab(); put_sc(drug_type); nl();
  }
}

static void do_modifiers(ondemand::array arr) {
  for (auto mv : arr) {
    n_mod++;
    Scalar code, setting;
    for (auto mf : mv.get_object()) {
      string_view mk = mf.unescaped_key();
      if (mk == "code") code = read_text(mf.value());
      else if (mk == "setting") setting = read_text(mf.value());
      else if (mk == "modifier_payer_information") {
        for (auto pv : mf.value().get_array()) {
          Scalar payer, plan, d;
          for (auto pf : pv.get_object()) {
            string_view pk = pf.unescaped_key();
            if (pk == "payer_name") payer = read_text(pf.value());
            else if (pk == "plan_name") plan = read_text(pf.value());
            else if (pk == "description") d = read_text(pf.value());
          }
          n_mod_payers++;
          int pid = payer_id(payer.text, plan.text);
          if (emit) { put("M\t"); put_sc(code); tab(); put_sc(setting); tab(); put_int(pid); tab(); put_sc(d); nl(); }
        }
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s file.json out [full|parse|load]\n", argv[0]); return 2; }
  std::string mode = argc > 3 ? argv[3] : "full";
  auto t0 = std::chrono::steady_clock::now();
  padded_string json;
  auto err = padded_string::load(argv[1]).get(json);
  if (err) { fprintf(stderr, "load error: %s\n", error_message(err)); return 1; }
  auto t1 = std::chrono::steady_clock::now();
  if (mode == "load") {
    fprintf(stderr, "loaded %zu bytes in %.3f s (wall)\n", json.size(),
            std::chrono::duration<double>(t1 - t0).count());
    return 0;
  }
  emit = (mode == "full");
  out = fopen(argv[2], "wb");
  if (!out) { perror("fopen"); return 1; }
  buf.reserve(BUFCAP);
  try {
    ondemand::parser parser;
    ondemand::document doc = parser.iterate(json);
    long long item_no = 0;
    for (auto field : doc.get_object()) {
      string_view k = field.unescaped_key();
      if (k == "standard_charge_information") {
        for (auto iv : field.value().get_array()) do_item(iv.get_object(), ++item_no);
      } else if (k == "modifier_information") {
        do_modifiers(field.value().get_array());
      }
      // other header keys are skipped
    }
    n_items = item_no;
  } catch (simdjson_error &e) {
    fprintf(stderr, "simdjson error: %s\n", e.what());
    return 1;
  }
  if (!buf.empty()) fwrite(buf.data(), 1, buf.size(), out);
  fclose(out);
  auto t2 = std::chrono::steady_clock::now();
  fprintf(stderr,
          "stage1(active)=%s ondemand(builtin)=%s mode=%s bytes=%zu load_wall=%.3fs parse_wall=%.3fs\n"
          "items=%lld codes=%lld drugs=%lld std_charges=%lld rates=%lld payer_plan_pairs=%zu modifiers=%lld modifier_payers=%lld\n"
          "valid=%lld no_methodology=%lld bad_methodology=%lld no_amount=%lld other_without_notes=%lld missing_payer_or_plan=%lld\n",
          simdjson::get_active_implementation()->name().c_str(), SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION), mode.c_str(), json.size(), std::chrono::duration<double>(t1 - t0).count(),
          std::chrono::duration<double>(t2 - t1).count(), n_items, n_codes, n_drugs, n_charges, n_rates,
          payer_ids.size(), n_mod, n_mod_payers, v_ok, v_no_method, v_bad_method, v_no_amount,
          v_other_no_notes, v_no_payer);
  return 0;
}
