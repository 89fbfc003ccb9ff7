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

#include "common.hpp"

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
  Charge charge;  // per standard charge, reused
  charge.payers.reserve(32);
  for (auto field : item) {
    string_view k = field.unescaped_key();
    ondemand::value v = field.value();
    if (k == "description") desc = read_text(v);
    else if (k == "code_information") {
      for (auto cv : v.get_array()) {
        const Code c = read_code(cv.get_object());
        n_codes++;
        if (emit) { put("C\t"); put_int(item_no); tab(); put_sc(c.code); tab(); put_sc(c.type); nl(); }
      }
    } else if (k == "drug_information") {
      n_drugs++;
      read_drug(v.get_object(), drug_unit, drug_type);
    } else if (k == "standard_charges") {
      for (auto scv : v.get_array()) {
        n_charges++;
        read_charge(scv.get_object(), charge);
        const Scalar &setting = charge.setting, &gross = charge.gross, &cash = charge.cash,
                     &mn = charge.mn, &mx = charge.mx, &bclass = charge.bclass, &gnotes = charge.gnotes;
        const std::vector<string_view> &mods = charge.mods;
        const std::vector<Payer> &payers = charge.payers;
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
