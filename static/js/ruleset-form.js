// The rule set on the competition form: choosing another preset sets the fields
// that still have the previous preset's values to the new preset's, and keeps what
// the director changed. The server applies the same rule without JavaScript
// (tournaments/forms.py CompetitionForm): the hidden ruleset_base names the preset
// the fields were shown with. The presets come from a json_script element.
(function () {
  "use strict";
  var data = document.getElementById("ruleset-presets");
  var preset = document.querySelector("select[name=ruleset_preset]");
  var base = document.querySelector("input[name=ruleset_base]");
  if (!data || !preset || !base || preset.disabled) return;
  var presets = JSON.parse(data.textContent);
  var changed = document.getElementById("ruleset-changed");

  function input(name) { return preset.form.elements.namedItem(name); }
  function valueOf(name) {
    var el = input(name);
    if (!el) return undefined;
    if (el.type === "checkbox") return el.checked;
    if (el.type === "number") return el.value === "" ? null : Number(el.value);
    return el.value;
  }
  function setValue(name, value) {
    var el = input(name);
    if (!el) return;
    if (el.type === "checkbox") el.checked = !!value;
    else el.value = String(value);
  }
  function markChanged() { if (changed) changed.hidden = false; }

  preset.addEventListener("change", function () {
    var before = presets[base.value] || presets[preset.value];
    var after = presets[preset.value];
    if (!after) return;
    Object.keys(after).forEach(function (name) {
      if (valueOf(name) === before[name]) setValue(name, after[name]);
    });
    base.value = preset.value;
    markChanged();
  });
  Object.keys(presets[preset.value] || {}).forEach(function (name) {
    var el = input(name);
    if (el) el.addEventListener("change", markChanged);
  });
})();
