// common.hpp - shared by floor.cpp and pipeline.cpp: COPY text helpers, simdjson scalar capture
// and the reading of one standard charge. The including file defines `buf` (the std::string
// lines are gathered in) and put(), putc_(), null_() on it before including this.
#pragma once

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

// An item's `code_information` entry, and its `drug_information` (unit and type).
struct Code { Scalar code, type; };
static inline Code read_code(ondemand::object o) {
  Code c;
  for (auto f : o) {
    string_view k = f.unescaped_key();
    if (k == "code") c.code = read_text(f.value());
    else if (k == "type") c.type = read_text(f.value());
  }
  return c;
}
static inline void read_drug(ondemand::object o, Scalar &unit, Scalar &type) {
  for (auto f : o) {
    string_view k = f.unescaped_key();
    if (k == "unit") unit = read_text(f.value());
    else if (k == "type") type = read_text(f.value());
  }
}

// One standard charge's fields and payers; fields may come in any order, so they are gathered
// before anything is written.
struct Payer {
  Scalar payer_name, plan_name, dollar, pct, algo, median, p10, p90, count, methodology, notes, est;
};
struct Charge {
  Scalar setting, gross, cash, mn, mx, bclass, gnotes;
  std::vector<string_view> mods;
  std::vector<Payer> payers;
};

static void read_charge(ondemand::object scv, Charge &c) {
  const Scalar none;
  c.setting = c.gross = c.cash = c.mn = c.mx = c.bclass = c.gnotes = none;
  c.mods.clear();
  c.payers.clear();
  for (auto sf : scv) {
    string_view sk = sf.unescaped_key();
    ondemand::value sv = sf.value();
    if (sk == "setting") c.setting = read_text(sv);
    else if (sk == "gross_charge") c.gross = read_scalar(sv);
    else if (sk == "discounted_cash") c.cash = read_scalar(sv);
    else if (sk == "minimum") c.mn = read_scalar(sv);
    else if (sk == "maximum") c.mx = read_scalar(sv);
    else if (sk == "billing_class") c.bclass = read_text(sv);
    else if (sk == "additional_generic_notes") c.gnotes = read_text(sv);
    else if (sk == "modifier_code") {
      if (sv.type() == ondemand::json_type::array)
        for (auto m : sv.get_array()) c.mods.push_back(string_view(m.get_string()));
    } else if (sk == "payers_information") {
      for (auto pv : sv.get_array()) {
        Payer p;
        for (auto pf : pv.get_object()) {
          string_view pk = pf.unescaped_key();
          ondemand::value pvv = pf.value();
          switch (pk.size() ? pk[0] : 0) {
            case 'p':
              if (pk == "payer_name") p.payer_name = read_text(pvv);
              else if (pk == "plan_name") p.plan_name = read_text(pvv);
              break;
            case 's':
              if (pk == "standard_charge_dollar") p.dollar = read_scalar(pvv);
              else if (pk == "standard_charge_percentage") p.pct = read_scalar(pvv);
              else if (pk == "standard_charge_algorithm") p.algo = read_text(pvv);
              break;
            case 'm':
              if (pk == "median_amount") p.median = read_scalar(pvv);
              else if (pk == "methodology") p.methodology = read_text(pvv);
              break;
            case 'e': if (pk == "estimated_amount") p.est = read_scalar(pvv); break;
            case '1': if (pk == "10th_percentile") p.p10 = read_scalar(pvv); break;
            case '9': if (pk == "90th_percentile") p.p90 = read_scalar(pvv); break;
            case 'c': if (pk == "count") p.count = read_text(pvv); break;
            case 'a': if (pk == "additional_payer_notes") p.notes = read_text(pvv); break;
            default: break;
          }
        }
        c.payers.push_back(p);
      }
    }
  }
}

// payer/plan pair ids, numbered as pairs first come (the database would hand out its own)
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
