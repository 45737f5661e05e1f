export default { displayName: '@workcell/db', preset: '../../jest.preset.js' };
