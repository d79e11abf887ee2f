// A table's column descriptions fill the first screen of its page (tool_results has ten):
// folded under one line, the rows come first.
(function () {
  var list = document.querySelector("dl.column-descriptions");
  if (!list) return;
  var details = document.createElement("details");
  details.className = "pf-column-descriptions";
  var summary = document.createElement("summary");
  summary.textContent = "What each column holds (" + list.querySelectorAll("dt").length + ")";
  list.parentNode.insertBefore(details, list);
  details.append(summary, list);
})();
