// Loaded by csp-page.html before the element: records every CSP violation the page reports.
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
