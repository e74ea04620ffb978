"""Standalone offline HTML pages: the report (``clfeval.report_html``) and its shell.

``_html`` is the page shell every page shares (escaping, the inlined Vega bundle, the styles,
the script that draws and sizes the charts); ``report`` builds the report page from the
clfeval frames and charts. Nothing here is imported by the modules that compute numbers,
except the shell, which ``Report.to_html`` uses.
"""
