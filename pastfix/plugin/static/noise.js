// recurring_errors' noise parameter takes one value, hide: a checkbox instead of a text box
// where "hide" had to be typed (the page over every index has the same checkbox).
(function () {
  var input = document.querySelector('form input[type="text"][name="noise"]');
  if (!input) return;
  var box = document.createElement("input");
  box.type = "checkbox";
  box.name = "noise";
  box.value = "hide";
  box.id = input.id;
  box.checked = input.value === "hide";
  var label = document.createElement("label");
  label.htmlFor = box.id;
  label.className = "pf-inline-label";
  label.textContent = " hide Claude Code's own noise (rejected, interrupted or blocked calls)";
  input.replaceWith(box);
  box.after(label);
})();
